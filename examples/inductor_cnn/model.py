"""A small convolutional classifier (conv, batch norm, ReLU, pooling, linear head) on a batch
of images: convolution layouts, batch-norm folding (freezing) and fusion decide its speed."""

import torch
from torch import nn


def stage(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(),
                         nn.Conv2d(cout, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(),
                         nn.MaxPool2d(2))


def build_model():
    torch.manual_seed(0)
    model = nn.Sequential(stage(3, 32), stage(32, 64), stage(64, 128), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                          nn.Linear(128, 10))
    for module in model.modules():
        if isinstance(module, nn.BatchNorm2d):
            module.running_mean.uniform_(-0.1, 0.1)
            module.running_var.uniform_(0.5, 1.5)
    return model


def example_input():
    generator = torch.Generator().manual_seed(2)
    return torch.randn(16, 3, 64, 64, generator=generator)
