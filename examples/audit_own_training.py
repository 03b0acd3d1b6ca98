#!/usr/bin/env python3
"""Audit your own DP-FedAvg training loop with dpaudit's canaries, in plain PyTorch.

The pattern of Andrew et al. 2024 ("One-shot empirical privacy estimation for federated
learning"), in a loop you own:

  1. Flatten the model: every parameter, in model.parameters() order, into one vector of
     D entries. dpaudit's canaries are vectors of that dimension.
  2. Make two canary sets with canary-gen: the seen ones (inserted) and the unseen ones
     (never inserted, the same distribution): two one-line JSON specs.
  3. Add K canary clients to the population. A canary client, when sampled, sends the
     update C * c_j (its unit canary scaled to the clip norm) and is counted in the
     denominator like any client. The canaries are streamed from `canary-gen --npy`
     one row at a time, never the whole K x D matrix.
  4. Save the flattened initial and final models as NPY; score-dump scores every canary
     by the cosine of (final - initial) with it; eps-from-scores turns the scores into
     an empirical epsilon; rdp-compose gives the analytic one of the same run.

Everything here is yours to replace: the task, the model, the local training. What must
stay is steps 1-4. Run `examples/audit_own_training.py --help` for the options; the
dpaudit tools must be on PATH or given with --bin.
"""
import argparse
import json
import os
import subprocess
import sys

import numpy as np
import torch


def tool(args, name):
    return os.path.join(args.bin, name) if args.bin else name


def flatten(model):
    """Step 1: the model as one vector, parameters in model.parameters() order."""
    return torch.cat([p.detach().flatten() for p in model.parameters()])


def unflatten_into(model, flat):
    i = 0
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(flat[i:i + p.numel()].view_as(p))
            i += p.numel()


def canary_rows(args, first, count, dim):
    """Step 3: canaries first .. first + count - 1 of the seen spec, one row at a time,
    read from canary-gen's NPY stream (memory: one row)."""
    cmd = [tool(args, "canary-gen"), "--kind", "sphere", "--dim", str(dim), "--seed", str(args.seed),
           "--first-index", str(first), "--count", str(count), "--npy", "-o", "-"]
    with subprocess.Popen(cmd, stdout=subprocess.PIPE) as proc:
        version = np.lib.format.read_magic(proc.stdout)
        read_header = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
        shape, _, dtype = read_header(proc.stdout)
        assert shape == (count, dim), shape
        for _ in range(count):
            yield np.frombuffer(proc.stdout.read(dim * dtype.itemsize), dtype=dtype)
    if proc.returncode != 0:
        sys.exit(f"canary-gen failed ({' '.join(cmd)})")


def make_task(gen, clients, per_client, features, classes):
    """A small synthetic classification task split over clients (replace with yours)."""
    centers = torch.randn(classes, features, generator=gen) * 2.0
    labels = torch.randint(classes, (clients, per_client), generator=gen)
    x = centers[labels] + torch.randn(clients, per_client, features, generator=gen)
    return x, labels


def local_update(model, global_flat, x, y, lr, steps):
    """One client's local training from the global model; returns its flat update."""
    unflatten_into(model, global_flat)
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    for _ in range(steps):
        opt.zero_grad()
        torch.nn.functional.cross_entropy(model(x), y).backward()
        opt.step()
    return flatten(model) - global_flat


def run(args):
    torch.manual_seed(args.seed)
    gen = torch.Generator().manual_seed(args.seed)
    features, classes = 32, 10
    model = torch.nn.Sequential(torch.nn.Linear(features, args.hidden), torch.nn.ReLU(),
                                torch.nn.Linear(args.hidden, classes)).double()
    x, y = make_task(gen, args.clients, 20, features, classes)
    x = x.double()
    dim = flatten(model).numel()
    os.makedirs(args.out, exist_ok=True)
    path = lambda name: os.path.join(args.out, name)

    # Step 2: the seen canaries are indices 0 .. K-1 of the seed's streams, the unseen
    # ones K .. 2K-1, so the two sets are independent and never overlap.
    for name, first in (("seen.json", 0), ("unseen.json", args.canaries)):
        with open(path(name), "w") as f:
            subprocess.run([tool(args, "canary-gen"), "--kind", "sphere", "--count", str(args.canaries),
                            "--dim", str(dim), "--seed", str(args.seed), "--first-index", str(first)],
                           stdout=f, check=True)

    glob = flatten(model).clone()
    np.save(path("init.npy"), glob.numpy())
    population = args.clients + args.canaries
    denominator = args.q * population          # expected clients per round (fixed denominator)
    for _ in range(args.rounds):
        # Poisson sampling of real and canary clients alike.
        picked = torch.rand(population, generator=gen) < args.q
        total = torch.zeros(dim, dtype=torch.float64)
        for c in torch.nonzero(picked[:args.clients]).flatten().tolist():
            update = local_update(model, glob, x[c], y[c], args.lr, args.local_steps)
            total += update * min(1.0, args.clip / max(update.norm().item(), 1e-300))
        canaries = torch.nonzero(picked[args.clients:]).flatten().tolist()
        for j, row in enumerate(canary_rows(args, 0, args.canaries, dim)):
            if j in canaries:
                total += args.clip * torch.from_numpy(row.copy())   # C * c_j, already unit norm
        total += torch.randn(dim, generator=gen, dtype=torch.float64) * args.noise * args.clip
        glob = glob + args.server_lr * total / denominator
    np.save(path("final.npy"), glob.numpy())

    # Step 4: score, estimate, and the analytic epsilon of the same run.
    with open(path("scores.csv"), "w") as f:
        subprocess.run([tool(args, "score-dump"), "--canaries", path("seen.json"), "--unseen", path("unseen.json"),
                        "--model", path("final.npy"), "--reference", path("init.npy"), "--quiet"],
                       stdout=f, check=True)
    estimate = lambda *opts: subprocess.run([tool(args, "eps-from-scores"), path("scores.csv"), *opts],
                                            capture_output=True, text=True, check=True).stdout.strip()
    result = {
        "parameters": dim,
        "eps_est": estimate("--method", "gauss-fit", "--delta", str(args.delta)),
        "eps_lo": estimate("--method", "clopper-pearson", "--delta", str(args.delta)),
    }
    if args.noise > 0:
        result["eps_analytic"] = subprocess.run(
            [tool(args, "rdp-compose"), "--accountant", "pld", "--sigma", str(args.noise), "--q", str(args.q),
             "--steps", str(args.rounds), "--delta", str(args.delta)],
            capture_output=True, text=True, check=True).stdout.strip()
    else:
        result["eps_analytic"] = "inf"
    print(json.dumps(result))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--bin", default="", help="folder of the dpaudit tools (default: PATH)")
    p.add_argument("--out", default="audit-run", help="folder for specs, models and scores")
    p.add_argument("--clients", type=int, default=200, help="real clients")
    p.add_argument("--canaries", type=int, default=100, help="K seen canary clients (and K unseen canaries)")
    p.add_argument("--rounds", type=int, default=50)
    p.add_argument("--q", type=float, default=0.1, help="Poisson sampling rate of every client")
    p.add_argument("--clip", type=float, default=1.0, help="clip norm C of a client update")
    p.add_argument("--noise", type=float, default=1.0, help="noise multiplier z: noise N(0, (zC)^2) on the sum")
    p.add_argument("--hidden", type=int, default=64)
    p.add_argument("--lr", type=float, default=0.1, help="client learning rate")
    p.add_argument("--local-steps", type=int, default=1)
    p.add_argument("--server-lr", type=float, default=1.0)
    p.add_argument("--delta", type=float, default=1e-5)
    p.add_argument("--seed", type=int, default=1)
    run(p.parse_args())


if __name__ == "__main__":
    main()
