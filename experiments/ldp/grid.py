"""The table and plot data of a grid of runs, shared by table.py (Fig. 2) and fig3.py (Fig. 3):
one markdown row per (block, row value) on stdout, and one gnuplot block per block in DAT
(a "# block" line, a "# header" line, then "row value1 value2 ...", "?" where a cell was not
run)."""


def write_grid(dat, blocks, rows, columns, cell, header):
    """cell(block, row, column) -> (markdown text, plot value as a string), or None if not run"""
    with open(dat, "w") as out:
        for block in blocks:
            out.write(f"# {block}\n# {header}\n")
            for row in rows:
                cells = [cell(block, row, column) for column in columns]
                print(f"| {block} | {row:g} | " + " | ".join(c[0] if c else "-" for c in cells) + " |")
                out.write(f"{row:g} " + " ".join(c[1] if c else "?" for c in cells) + "\n")
            out.write("\n\n")
