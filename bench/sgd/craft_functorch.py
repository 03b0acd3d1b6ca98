#!/usr/bin/env python3
"""Nasr et al. 2021, Crafter 3's double-backprop step in plain PyTorch: the peer of `dp-train sgd
--threat adaptive-poison`.

One crafting step, as dp-train's C3 does it: with theta the parameters of an MLP
784-H-10 (torch.nn.Linear initialisation), the poison x (label y_q) and the query
(x_q, y_q),
  J(x) = l(theta - eta clip_C(grad_theta l(theta, x, y_q)), x_q, y_q),
dJ/dx by differentiating through the per-example gradient, then the normalised step
x <- clamp(x - s dJ/dx / ||dJ/dx||, 0, 1). A poison is `--steps` such steps from x = 0.
--api functorch: functorch.grad of a function that calls functorch.grad (how torch.func
users write it; Debian's python3-torch 1.13 ships functorch, torch.func's predecessor);
--api autograd: torch.autograd.grad with create_graph=True.

Prints one JSON line: seconds per step and per poison (wall and CPU), timed over
`--poisons` poisons after one warm-up poison.
  /usr/bin/python3 craft_functorch.py --hidden 32 --steps 10 --poisons 100 --threads 1
"""
import argparse
import json
import time

import torch
import torch.nn.functional as F
from functorch import grad, make_functional


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hidden", type=int, default=32)
    ap.add_argument("--steps", type=int, default=10)
    ap.add_argument("--poisons", type=int, default=100)
    ap.add_argument("--eta", type=float, default=0.01)  # lr / L: 1 / 100 in Nasr et al. 2021's reduced setting
    ap.add_argument("--clip", type=float, default=1.0)
    ap.add_argument("--step-size", type=float, default=1.0)
    ap.add_argument("--api", choices=["functorch", "autograd"], default="functorch")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    model = torch.nn.Sequential(torch.nn.Linear(784, a.hidden), torch.nn.ReLU(), torch.nn.Linear(a.hidden, 10))
    fmodel, params = make_functional(model)
    params = tuple(p.detach() for p in params)
    xq, yq = torch.rand(784), torch.tensor(3)

    def loss(p, x, y):
        return F.cross_entropy(fmodel(p, x.unsqueeze(0)), y.unsqueeze(0))

    def objective(x, p):
        g = grad(loss)(p, x, yq)
        norm = torch.sqrt(sum((gi * gi).sum() for gi in g))
        factor = torch.clamp(a.clip / norm, max=1.0)
        return loss(tuple(pi - a.eta * factor * gi for pi, gi in zip(p, g)), xq, yq)

    d_objective = grad(objective)

    def input_gradient_autograd(x, p):
        x = x.detach().requires_grad_(True)
        p = tuple(pi.detach().requires_grad_(True) for pi in p)
        g = torch.autograd.grad(loss(p, x, yq), p, create_graph=True)
        norm = torch.sqrt(sum((gi * gi).sum() for gi in g))
        factor = torch.clamp(a.clip / norm, max=1.0)
        j = loss(tuple(pi.detach() - a.eta * factor * gi for pi, gi in zip(p, g)), xq, yq)
        return torch.autograd.grad(j, x)[0]

    step = d_objective if a.api == "functorch" else input_gradient_autograd

    def craft():
        x = torch.zeros(784)
        for _ in range(a.steps):
            g = step(x, params)
            n = g.norm()
            if not n > 0:
                break
            x = torch.clamp(x - a.step_size * g / n, 0.0, 1.0)
        return x

    craft()  # warm-up
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(a.poisons):
        craft()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    steps = a.poisons * a.steps
    print(json.dumps({"api": a.api, "hidden": a.hidden, "steps_per_poison": a.steps, "poisons": a.poisons,
                      "seconds_per_step": wall / steps, "cpu_seconds_per_step": cpu / steps,
                      "seconds_per_poison": wall / a.poisons, "threads": a.threads}))


if __name__ == "__main__":
    main()
