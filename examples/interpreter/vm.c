/* A small stack-machine interpreter: branch-heavy integer code whose speed depends on how
 * the compiler lays out the dispatch switch (jump tables, global CSE, alignment, inlining).
 * Usage: vm PROGRAM
 * PROGRAM is assembly text: whitespace-separated instructions (an operand follows its
 * instruction), '#' starts a comment to the end of the line, "name:" defines a label.
 * Values are 64-bit integers with wrap-around arithmetic; there are 16 registers
 * and a memory of 4M cells, all zero at start.
 *   push N | load R | store R | aload | astore | add | sub | mul | div | mod | neg | lt | eq
 *   dup | swap | pop | jmp L | jz L | jnz L | print | halt
 * aload pops an address and pushes mem[address]; astore pops a value, then an address.
 * div and mod truncate toward zero like C; a zero divisor or a bad address stops the
 * program with exit status 3. print pops a value and writes it to stdout on its own line. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum Op { PUSH, LOAD, STORE, ALOAD, ASTORE, ADD, SUB, MUL, DIV, MOD, NEG, LT, EQ, DUP, SWAP,
          POP, JMP, JZ, JNZ, PRINT, HALT, OP_COUNT };

static const char *const op_names[OP_COUNT] = {
    "push", "load", "store", "aload", "astore", "add", "sub", "mul", "div", "mod", "neg",
    "lt", "eq", "dup", "swap", "pop", "jmp", "jz", "jnz", "print", "halt"};

#define MAX_CODE 4096
#define MAX_LABELS 256
#define STACK_SIZE 1024
#define MEMORY_SIZE (1 << 22)

struct Insn { int op; int64_t arg; };
struct Label { char name[32]; int target; };

static struct Insn code[MAX_CODE];
static struct Label labels[MAX_LABELS];
static char pending[MAX_CODE][32]; /* label name a jump refers to, resolved after parsing */
static int64_t memory[MEMORY_SIZE];

static int fail(const char *what, int line)
{
    fprintf(stderr, "line %d: %s\n", line, what);
    exit(2);
}

static int assemble(FILE *in)
{
    char text[512];
    int count = 0, label_count = 0, line = 0;
    while (fgets(text, sizeof text, in)) {
        ++line;
        char *hash = strchr(text, '#');
        if (hash) *hash = '\0';
        for (char *word = strtok(text, " \t\r\n"); word; word = strtok(NULL, " \t\r\n")) {
            size_t len = strlen(word);
            if (len >= 32) fail("name too long", line);
            if (word[len - 1] == ':') {
                if (label_count == MAX_LABELS) fail("too many labels", line);
                word[len - 1] = '\0';
                strcpy(labels[label_count].name, word);
                labels[label_count++].target = count;
                continue;
            }
            int op = 0;
            while (op < OP_COUNT && strcmp(op_names[op], word) != 0) ++op;
            if (op == OP_COUNT) fail("unknown instruction", line);
            if (count == MAX_CODE) fail("program too long", line);
            code[count].op = op;
            code[count].arg = 0;
            pending[count][0] = '\0';
            if (op == PUSH || op == LOAD || op == STORE || op == JMP || op == JZ || op == JNZ) {
                char *arg = strtok(NULL, " \t\r\n");
                if (!arg) fail("missing operand", line);
                if (strlen(arg) >= 32) fail("name too long", line);
                if (op == JMP || op == JZ || op == JNZ) strcpy(pending[count], arg);
                else code[count].arg = strtoll(arg, NULL, 0);
                if ((op == LOAD || op == STORE) && (code[count].arg < 0 || code[count].arg > 15))
                    fail("register must be 0..15", line);
            }
            ++count;
        }
    }
    for (int i = 0; i < count; ++i) {
        if (!pending[i][0]) continue;
        int l = 0;
        while (l < label_count && strcmp(labels[l].name, pending[i]) != 0) ++l;
        if (l == label_count) fail("unknown label", 0);
        code[i].arg = labels[l].target;
    }
    return count;
}

static int run(int count)
{
    int64_t stack[STACK_SIZE], reg[16] = {0};
    int sp = 0, pc = 0;
#define CHECK(cond, what) do { if (!(cond)) { fprintf(stderr, "pc %d: %s\n", pc - 1, what); return 3; } } while (0)
    while (pc < count) {
        struct Insn insn = code[pc++];
        int64_t a, b;
        switch (insn.op) {
        case PUSH: CHECK(sp < STACK_SIZE, "stack overflow"); stack[sp++] = insn.arg; break;
        case LOAD: CHECK(sp < STACK_SIZE, "stack overflow"); stack[sp++] = reg[insn.arg]; break;
        case STORE: CHECK(sp > 0, "stack underflow"); reg[insn.arg] = stack[--sp]; break;
        case ALOAD:
            CHECK(sp > 0, "stack underflow");
            a = stack[sp - 1];
            CHECK(a >= 0 && a < MEMORY_SIZE, "bad address");
            stack[sp - 1] = memory[a];
            break;
        case ASTORE:
            CHECK(sp > 1, "stack underflow");
            b = stack[--sp];
            a = stack[--sp];
            CHECK(a >= 0 && a < MEMORY_SIZE, "bad address");
            memory[a] = b;
            break;
        case DUP: CHECK(sp > 0 && sp < STACK_SIZE, "stack"); stack[sp] = stack[sp - 1]; ++sp; break;
        case SWAP: CHECK(sp > 1, "stack underflow"); a = stack[sp - 1]; stack[sp - 1] = stack[sp - 2]; stack[sp - 2] = a; break;
        case POP: CHECK(sp > 0, "stack underflow"); --sp; break;
        case NEG: CHECK(sp > 0, "stack underflow"); stack[sp - 1] = (int64_t)(0 - (uint64_t)stack[sp - 1]); break;
        case PRINT: CHECK(sp > 0, "stack underflow"); printf("%lld\n", (long long)stack[--sp]); break;
        case JMP: pc = (int)insn.arg; break;
        case JZ: CHECK(sp > 0, "stack underflow"); if (stack[--sp] == 0) pc = (int)insn.arg; break;
        case JNZ: CHECK(sp > 0, "stack underflow"); if (stack[--sp] != 0) pc = (int)insn.arg; break;
        case HALT: return 0;
        default:
            CHECK(sp > 1, "stack underflow");
            b = stack[--sp];
            a = stack[sp - 1];
            switch (insn.op) {
            case ADD: a = (int64_t)((uint64_t)a + (uint64_t)b); break;
            case SUB: a = (int64_t)((uint64_t)a - (uint64_t)b); break;
            case MUL: a = (int64_t)((uint64_t)a * (uint64_t)b); break;
            case DIV: CHECK(b != 0, "division by zero"); a = (b == -1) ? (int64_t)(0 - (uint64_t)a) : a / b; break;
            case MOD: CHECK(b != 0, "division by zero"); a = (b == -1) ? 0 : a % b; break;
            case LT: a = a < b; break;
            case EQ: a = a == b; break;
            }
            stack[sp - 1] = a;
        }
    }
#undef CHECK
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s PROGRAM\n", argv[0]);
        return 2;
    }
    FILE *in = fopen(argv[1], "r");
    if (!in) {
        fprintf(stderr, "cannot open %s\n", argv[1]);
        return 2;
    }
    int count = assemble(in);
    fclose(in);
    return run(count);
}
