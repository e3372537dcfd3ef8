#!/usr/bin/env python3
"""Checks that the builds CI runs one after another in target/ share their dependencies.

`cargo test --release` (the default members, with their dev-dependencies), the Python
extension's build (`cargo rustc -p emu-py`, what maturin runs for
`pip install ./crates/emu-py`) and the mutation tool's (`cargo run --release -p
emu-mutate`) are separate cargo invocations, and each resolves the features of a shared
dependency from its own packages only. Where the features differ, the later build
compiles that crate again, and every crate above it (a different `syn` rebuilds every
derive macro, then serde, then emu-core and emu). The members declare the missing
features on the shared crates (crates/emu-py/Cargo.toml, tools/mutate/Cargo.toml and
the root Cargo.toml's unification sections), and this script, run by `.ci/run`, finds
a crate whose units differ again.

    tools/same-units.py

Compares the unit graphs (`cargo --unit-graph`, with RUSTC_BOOTSTRAP=1: nothing is
built) of the two later builds with the test build's, and prints each crate built by
both whose features or profile differ, with the features to declare. Exits 0 when none
does, 1 when one does, 2 when cargo could not resolve a build.
"""

import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

BUILDS = {
    "cargo test --release": ["test", "--release", "--no-run"],
    "the Python extension (maturin's cargo rustc -p emu-py)": [
        "rustc", "--release", "-p", "emu-py", "--lib", "--features", "pyo3/extension-module",
    ],
    "cargo run --release -p emu-mutate": ["build", "--release", "-p", "emu-mutate"],
}


def units(args):
    """Each unit of one build by (package, target, mode): its features and profile."""
    env = dict(os.environ, RUSTC_BOOTSTRAP="1")
    out = subprocess.run(
        ["cargo", *args, "--unit-graph", "-Z", "unstable-options"],
        cwd=ROOT, env=env, capture_output=True, text=True,
    )
    if out.returncode != 0:
        sys.stderr.write(out.stderr)
        print(f"same-units: cargo {' '.join(args)} could not resolve", file=sys.stderr)
        sys.exit(2)
    found = {}
    for u in json.loads(out.stdout)["units"]:
        pkg = u["pkg_id"].rsplit("#", 1)[-1]
        if u["pkg_id"].startswith("path+"):
            pkg = "path:" + pkg
        key = (pkg, u["target"]["name"], u["mode"])
        p = u["profile"]
        found[key] = (tuple(u["features"]), p["opt_level"], str(p.get("debuginfo")),
                      p.get("codegen_units"), p.get("debug_assertions"))
    return found


def main():
    names = list(BUILDS)
    base = units(BUILDS[names[0]])
    bad = 0
    for name in names[1:]:
        other = units(BUILDS[name])
        for key in sorted(other):
            if key in base and base[key] != other[key]:
                bad += 1
                a, b = set(base[key][0]), set(other[key][0])
                line = (f"{key[0]} ({key[1]}, {key[2]}) in {name}: features only in the"
                        f" test build {sorted(a - b)}, only in this one {sorted(b - a)}")
                if base[key][1:] != other[key][1:]:
                    line += f"; profile {base[key][1:]} against {other[key][1:]}"
                print(line)
    if bad:
        print(f"same-units: {bad} unit(s) differ, so they are compiled twice: declare the"
              " features on the dependency in the member that lacks them", file=sys.stderr)
        return 1
    print(f"same-units: the {len(names) - 1} later builds share every dependency with {names[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
