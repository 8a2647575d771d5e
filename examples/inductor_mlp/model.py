"""A stack of transformer MLP blocks (LayerNorm, Linear 4x, GELU, Linear, residual) on a
small batch of tokens: many small kernels, so launch overhead and fusion decide its speed."""

import torch
from torch import nn


class Block(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.norm = nn.LayerNorm(width)
        self.up = nn.Linear(width, 4 * width)
        self.down = nn.Linear(4 * width, width)

    def forward(self, x):
        return x + self.down(nn.functional.gelu(self.up(self.norm(x))))


def build_model():
    return nn.Sequential(*[Block(256) for _ in range(6)], nn.LayerNorm(256))


def example_input():
    generator = torch.Generator().manual_seed(1)
    return torch.randn(8, 64, 256, generator=generator)
