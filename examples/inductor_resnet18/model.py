"""torchvision's ResNet-18 (a model nobody here wrote), with random weights: convolutions,
batch norm, residual adds and a linear head on a batch of 224x224 images."""

import torch
import torchvision


def build_model():
    torch.manual_seed(0)
    return torchvision.models.resnet18(weights=None)


def example_input():
    generator = torch.Generator().manual_seed(3)
    return torch.randn(32, 3, 224, 224, generator=generator)
