#!/usr/bin/env python3
"""Plain PyTorch DP-FedAvg with canary clients: the peer `dp-train fedavg` is measured against.

The same algorithm and configuration as dp-train fedavg (Andrew et al. 2024, Alg. 2-3): Fashion-MNIST,
784-128-10 MLP, IID clients, shuffled participation (clients and seen canaries, M per
round), local SGD, update clipping, Gaussian noise z*S on the sum, division by the number
of participants, server SGD with momentum, and every round the cosines of all seen and
unseen canaries with the noisy aggregate (a k x D matrix-vector product, canaries kept in
memory). Written the way a PyTorch user would: torch.nn, torch.optim.SGD, DataLoader-free
index batches. Prints one JSON line: seconds per round, test accuracy.

  /usr/bin/python3 fedavg_torch.py --rounds 20 --threads 2
"""
import argparse
import json
import os
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from fashion_mnist import load_fashion_mnist  # noqa: E402


def make_model(hidden):
    return torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(784, hidden), torch.nn.ReLU(), torch.nn.Linear(hidden, 10))


def flat(model):
    return torch.cat([p.detach().reshape(-1) for p in model.parameters()])


def assign(model, vector):
    torch.nn.utils.vector_to_parameters(vector, model.parameters())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default="/usr/share/datasets/fashion-mnist")
    ap.add_argument("--clients", type=int, default=3000)
    ap.add_argument("--clients-per-round", type=int, default=100)
    ap.add_argument("--rounds", type=int, default=40)
    ap.add_argument("--local-epochs", type=int, default=2)
    ap.add_argument("--local-batch", type=int, default=16)
    ap.add_argument("--client-lr", type=float, default=0.1)
    ap.add_argument("--clip", type=float, default=1.0)
    ap.add_argument("--noise-multiplier", type=float, default=0.5)
    ap.add_argument("--server-lr", type=float, default=1.0)
    ap.add_argument("--server-momentum", type=float, default=0.9)
    ap.add_argument("--num-canaries", type=int, default=1000)
    ap.add_argument("--num-unseen", type=int, default=1000)
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--canary-dtype", choices=["float64", "float32"], default="float64",
                    help="how the canaries are held (float32: as dp-train's rounds hold them, "
                         "but summed in float32 by torch's mv)")
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    rng = np.random.default_rng(a.seed)

    x, y, x_test, y_test = load_fashion_mnist(a.data, (1, 28, 28))
    client_data = np.array_split(rng.permutation(len(y)), a.clients)
    model = make_model(a.hidden)
    dim = sum(p.numel() for p in model.parameters())
    canaries = torch.randn(a.num_canaries + a.num_unseen, dim, dtype=torch.float64)
    canaries /= canaries.norm(dim=1, keepdim=True)
    canaries = canaries.to(getattr(torch, a.canary_dtype))
    local = make_model(a.hidden)
    theta = flat(model).double()
    velocity = torch.zeros_like(theta)
    max_cos = torch.full((a.num_canaries + a.num_unseen,), -1.0, dtype=torch.float64)
    population = a.clients + a.num_canaries
    order = []

    start = time.perf_counter()
    for t in range(a.rounds):
        if not order:
            order = list(rng.permutation(population))
        members, order = order[:a.clients_per_round], order[a.clients_per_round:]
        rho = torch.zeros(dim, dtype=torch.float64)
        for i in members:
            if i >= a.clients:  # a seen canary: Proj(c_j; S)
                rho += canaries[i - a.clients].double() * a.clip
                continue
            assign(local, theta.float())
            opt = torch.optim.SGD(local.parameters(), lr=a.client_lr)
            idx = client_data[i]
            for _ in range(a.local_epochs):
                perm = idx[rng.permutation(len(idx))]
                for b in range(0, len(perm), a.local_batch):
                    batch = torch.from_numpy(perm[b:b + a.local_batch])
                    opt.zero_grad()
                    F.cross_entropy(local(x[batch]), y[batch]).backward()
                    opt.step()
            update = flat(local).double() - theta
            rho += update * min(1.0, a.clip / max(update.norm().item(), 1e-300))
        rho_bar = (rho + torch.randn(dim, dtype=torch.float64) * a.noise_multiplier * a.clip) / len(members)
        cos = (canaries @ rho_bar.to(canaries.dtype)).double() / rho_bar.norm()
        max_cos = torch.maximum(max_cos, cos)
        velocity = a.server_momentum * velocity + rho_bar
        theta = theta + a.server_lr * velocity
    seconds = time.perf_counter() - start

    assign(model, theta.float())
    with torch.no_grad():
        accuracy = (model(x_test).argmax(1) == y_test).double().mean().item()
    print(json.dumps({"seconds_per_round": seconds / a.rounds, "test_accuracy": accuracy, "dim": dim,
                      "threads": a.threads, "rounds": a.rounds}))


if __name__ == "__main__":
    main()
