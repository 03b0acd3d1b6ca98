#!/usr/bin/env python3
"""Plain PyTorch DP-SGD with functorch per-sample gradients: the peer of `dp-train sgd`.

The same algorithm and configuration as one model of `dp-train sgd` (Abadi et al. 2016):
Fashion-MNIST, the first N training images (pixels / 255), MLP 784-H-10 (torch.nn.Linear,
ReLU; its default initialisation), T steps; each step a Poisson lot (every example joins
with probability q), per-sample gradients of the cross-entropy by
functorch.vmap(functorch.grad(loss)) over make_functional's parameters, each clipped to L2
norm C, summed, N(0, (z C)^2) noise added, divided by the expected lot q N, and an SGD
step with learning rate lr. Written the way a functorch user would (the functorch
per-sample-gradient tutorial); Debian's python3-torch 1.13 ships functorch.

Prints one JSON line: steps/s and seconds of the training loop only (data loading, the
first call's tracing and the test evaluation excluded), its CPU time, test accuracy on
the 10,000 test images, the mean lot size.

  /usr/bin/python3 dpsgd_functorch.py --train-size 1000 --q 0.1 --hidden 32 --steps 100 \
      --noise-multiplier 1.4815 --lr 0.15 --threads 1
"""
import argparse
import json
import os
import sys
import time

import torch
import torch.nn.functional as F
from functorch import grad, make_functional, vmap

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from fashion_mnist import load_fashion_mnist  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default="/usr/share/datasets/fashion-mnist")
    ap.add_argument("--train-size", type=int, default=1000)
    ap.add_argument("--q", type=float, default=0.1)
    ap.add_argument("--hidden", type=int, default=32)
    ap.add_argument("--steps", type=int, default=100)
    ap.add_argument("--lr", type=float, default=0.15)
    ap.add_argument("--clip", type=float, default=1.0)
    ap.add_argument("--noise-multiplier", type=float, required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1)
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)

    x_all, y_all, x_test, y_test = load_fashion_mnist(a.data)
    x, y = x_all[: a.train_size].contiguous(), y_all[: a.train_size].contiguous()
    n = len(y)

    model = torch.nn.Sequential(torch.nn.Linear(784, a.hidden), torch.nn.ReLU(), torch.nn.Linear(a.hidden, 10))
    fmodel, params = make_functional(model)
    params = tuple(p.detach() for p in params)

    def loss(p, xi, yi):
        return F.cross_entropy(fmodel(p, xi.unsqueeze(0)), yi.unsqueeze(0))

    per_sample_grads = vmap(grad(loss), in_dims=(None, 0, 0))
    # Warm-up: the first call traces; it does not touch the parameters.
    per_sample_grads(params, x[:2], y[:2])

    expected_lot = a.q * n
    noise_std = a.noise_multiplier * a.clip
    lot_total = 0
    wall0, cpu0 = time.perf_counter(), time.process_time()
    for _ in range(a.steps):
        idx = torch.nonzero(torch.rand(n) < a.q).squeeze(1)
        lot_total += len(idx)
        if len(idx) > 0:
            grads = per_sample_grads(params, x[idx], y[idx])
            norms = torch.sqrt(sum(g.reshape(len(idx), -1).pow(2).sum(1) for g in grads))
            factor = (a.clip / (norms + 1e-12)).clamp(max=1.0)
            sums = [torch.einsum("i,i...->...", factor, g) for g in grads]
        else:
            sums = [torch.zeros_like(p) for p in params]
        params = tuple(p - a.lr * (s + noise_std * torch.randn_like(p)) / expected_lot for p, s in zip(params, sums))
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0

    with torch.no_grad():
        accuracy = (fmodel(params, x_test).argmax(1) == y_test).double().mean().item()
    print(json.dumps({
        "impl": "functorch", "steps": a.steps, "seconds": wall, "cpu_seconds": cpu, "steps_per_second": a.steps / wall,
        "test_accuracy": accuracy, "mean_lot": lot_total / a.steps, "threads": a.threads, "seed": a.seed,
        "parameters": sum(p.numel() for p in params), "torch": torch.__version__}))


if __name__ == "__main__":
    main()
