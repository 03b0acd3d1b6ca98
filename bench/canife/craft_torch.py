#!/usr/bin/env python3
"""Plain PyTorch CANIFE canary crafting (Maddock et al. 2023, Alg. 1, sample level): the peer of `dp-train canife`.

The same crafting as one audit of `dp-train canife`, written the way Maddock et al. 2023's authors' code
(facebookresearch/canife, canife/canary_designer.py) does it: a torch.nn MLP 784-H-10
(nn.Linear's default initialisation, the same scheme dp-train uses), a design pool of M
Fashion-MNIST test images (gzip IDX, pixels / 255) drawn without replacement, their
per-example gradients by functorch.vmap(functorch.grad(loss)) clipped to L2 norm C (the
M x d design matrix, kept in memory), a random canary (uniform pixels, uniform class),
then T Adam steps (torch.optim.Adam, lr 1, default betas) on the canary minimising

    L(z) = d (1/m) sum_{i in B} <u_i, C g/||g||>^2 + d max(C_n - ||g||, 0)^2

with g = torch.autograd.grad(CE(model(z), y), params, create_graph=True) flattened, B a
minibatch of m design rows drawn without replacement each step (target = pool[idx], as
the authors' model_updates path), and L.backward() giving dL/dz by the double backward.
The authors' broadcast-multiply-and-sum <u_i, g> (`--dot broadcast`) or a mat-vec
(`--dot matvec`, default: the faster of the two). Health is (L(z_0) - L(z_T)) / L(z_0)
over the whole pool, as dp-train reports it.

After crafting, n mock rounds at the same frozen model, as dp-train's audit: each a Poisson
lot (rate q) over the 60,000 training images, their per-example gradients (vmap(grad))
clipped to C and summed, N(0, (z C)^2) noise added, the canary's clipped gradient added in
every other round; score <sum, g/||g||> / C.

Prints one JSON line: seconds and CPU seconds (time.process_time) of the design pool's
gradients, of the Adam loop alone (steps/s = T / loop seconds), of the whole design (pool,
health losses, loop and the crafted canary's gradient: what dp-train's design_seconds
covers) and of the mock rounds; the losses and health.

  /usr/bin/python3 craft_torch.py --steps 500 --threads 1
"""
import argparse
import json
import os
import random
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F
from functorch import grad, make_functional, vmap

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from fashion_mnist import load_fashion_mnist  # noqa: E402


class Clock:
    def __init__(self):
        self.wall, self.cpu = time.perf_counter(), time.process_time()

    def read(self):
        return time.perf_counter() - self.wall, time.process_time() - self.cpu


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default="/usr/share/datasets/fashion-mnist")
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--design-pool", type=int, default=512)
    ap.add_argument("--minibatch", type=int, default=128)
    ap.add_argument("--steps", type=int, default=2500)
    ap.add_argument("--lr", type=float, default=1.0)
    ap.add_argument("--clip", type=float, default=1.0)
    ap.add_argument("--norm-constant", type=float, default=1.0)
    ap.add_argument("--dot", choices=["matvec", "broadcast"], default="matvec")
    ap.add_argument("--mock-rounds", type=int, default=100)
    ap.add_argument("--q", type=float, default=128 / 60000)
    ap.add_argument("--noise-multiplier", type=float, default=0.2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1)
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    random.seed(a.seed)

    x_train, y_train, x_test, y_test = load_fashion_mnist(a.data)
    model = torch.nn.Sequential(torch.nn.Linear(784, a.hidden), torch.nn.ReLU(), torch.nn.Linear(a.hidden, 10))
    parameters = [p for p in model.parameters() if p.requires_grad]
    d = sum(p.numel() for p in parameters)
    fmodel, fparams = make_functional(model)
    fparams = tuple(p.detach() for p in fparams)

    def example_loss(p, xi, yi):
        return F.cross_entropy(fmodel(p, xi.unsqueeze(0)), yi.unsqueeze(0))

    per_sample_grads = vmap(grad(example_loss), in_dims=(None, 0, 0))

    def clipped_per_sample(x, y):  # rows: flattened per-example gradients clipped to C
        g = torch.cat([t.reshape(len(y), -1) for t in per_sample_grads(fparams, x, y)], dim=1)
        return g * (a.clip / (g.norm(dim=1, keepdim=True) + 1e-12)).clamp(max=1.0)

    clipped_per_sample(x_test[:2], y_test[:2])  # warm-up: the first call traces

    # The design pool's clipped per-example gradients (M x d).
    design_clock = clock = Clock()
    pool_idx = torch.randperm(len(y_test))[: a.design_pool]
    pool = clipped_per_sample(x_test[pool_idx], y_test[pool_idx])
    pool_seconds, pool_cpu = clock.read()

    canary = torch.rand(size=(1, 784))
    canary_class = torch.tensor([random.randint(0, 9)])
    init_canary = canary.clone()
    canary.requires_grad = True
    optimizer = torch.optim.Adam([canary], lr=a.lr)

    def canary_loss(z, target, create_graph):
        model.zero_grad()
        loss = F.cross_entropy(model(z), canary_class)
        grad_f = torch.autograd.grad(loss, parameters, create_graph=create_graph, retain_graph=create_graph)
        grad_f = torch.cat([g.flatten() for g in grad_f])
        total = torch.zeros(1)
        norm = torch.norm(grad_f)
        if a.norm_constant > 0 and a.norm_constant - norm > 0:
            total = total + d * (a.norm_constant - norm) ** 2
        grad_f = F.normalize(grad_f, dim=0) * a.clip
        if a.dot == "broadcast":  # the authors' expression
            dots = torch.sum(grad_f.view(1, -1) * target, dim=1)
        else:
            dots = target @ grad_f
        return total + d * (dots ** 2).sum() / target.shape[0]

    initial_loss = canary_loss(init_canary, pool, False).item()

    m = min(a.minibatch, a.design_pool)
    clock = Clock()
    for _ in range(a.steps):
        optimizer.zero_grad()
        idx = torch.randperm(a.design_pool)[:m]
        target = pool[idx]
        loss = canary_loss(canary, target, True)
        loss.backward()
        optimizer.step()
    loop_seconds, loop_cpu = clock.read()

    crafted = canary.detach()
    final_loss = canary_loss(crafted, pool, False).item()
    g = torch.cat([t.flatten() for t in torch.autograd.grad(F.cross_entropy(model(crafted), canary_class), parameters)])
    g_norm = g.norm().item()
    design_seconds, design_cpu = design_clock.read()

    # n mock rounds at the frozen model, the canary in every other one.
    clock = Clock()
    unit = g / g_norm
    canary_update = g * min(1.0, a.clip / g_norm)
    scores = []
    with torch.no_grad():
        for k in range(a.mock_rounds):
            lot = torch.nonzero(torch.rand(len(y_train)) < a.q).squeeze(1)
            total = clipped_per_sample(x_train[lot], y_train[lot]).sum(0) if len(lot) else torch.zeros(d)
            total = total + a.noise_multiplier * a.clip * torch.randn(d)
            if k % 2:
                total = total + canary_update
            scores.append((total @ unit).item() / a.clip)
    mock_seconds, mock_cpu = clock.read()

    print(json.dumps({
        "impl": "pytorch", "steps": a.steps, "dot": a.dot, "threads": a.threads, "seed": a.seed, "parameters": d,
        "pool_seconds": pool_seconds, "pool_cpu_seconds": pool_cpu,
        "design_seconds": design_seconds, "design_cpu_seconds": design_cpu,
        "loop_seconds": loop_seconds, "loop_cpu_seconds": loop_cpu, "steps_per_second": a.steps / loop_seconds,
        "steps_per_cpu_second": a.steps / loop_cpu,
        "mock_rounds": a.mock_rounds, "mock_seconds": mock_seconds, "mock_cpu_seconds": mock_cpu,
        "initial_loss": initial_loss, "final_loss": final_loss, "health": (initial_loss - final_loss) / initial_loss,
        "canary_label": int(canary_class.item()), "canary_grad_norm": g_norm,
        "with_mean": float(np.mean(scores[1::2])) if a.mock_rounds > 1 else None,
        "without_mean": float(np.mean(scores[0::2])) if a.mock_rounds else None,
        "torch": torch.__version__}))


if __name__ == "__main__":
    main()
