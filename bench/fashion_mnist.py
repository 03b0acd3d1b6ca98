"""Fashion-MNIST for the benchmarks' PyTorch peers: the four gzip IDX files of Debian's
dataset-fashion-mnist, pixels scaled to [0, 1], as torch tensors (train x, train y, test x,
test y); `shape` is one image's shape (784 flat, or (1, 28, 28))."""
import gzip

import numpy as np
import torch


def load_fashion_mnist(directory, shape=(784,)):
    def images(name):
        with gzip.open(f"{directory}/{name}", "rb") as f:
            return np.frombuffer(f.read()[16:], np.uint8).reshape(-1, *shape).astype(np.float32) / 255

    def labels(name):
        with gzip.open(f"{directory}/{name}", "rb") as f:
            return np.frombuffer(f.read()[8:], np.uint8).astype(np.int64)

    return (torch.from_numpy(images("train-images-idx3-ubyte.gz")), torch.from_numpy(labels("train-labels-idx1-ubyte.gz")),
            torch.from_numpy(images("t10k-images-idx3-ubyte.gz")), torch.from_numpy(labels("t10k-labels-idx1-ubyte.gz")))
