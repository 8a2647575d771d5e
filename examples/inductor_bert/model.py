"""Hugging Face transformers' BERT (bert-base's shape: 12 layers, hidden size 768, 12 heads;
a model nobody here wrote), with random weights, on a batch of 8 sequences of 128 token ids.
The workload's output is the last hidden state."""

import torch


class LastHiddenState(torch.nn.Module):
    """BertModel, returning its last hidden state as a plain tensor."""

    def __init__(self, bert):
        super().__init__()
        self.bert = bert

    def forward(self, input_ids):
        return self.bert(input_ids=input_ids).last_hidden_state


def build_model():
    import transformers

    torch.manual_seed(0)
    config = transformers.BertConfig()  # bert-base-uncased's shape
    return LastHiddenState(transformers.BertModel(config))


def example_input():
    generator = torch.Generator().manual_seed(3)
    return torch.randint(0, 30522, (8, 128), generator=generator)
