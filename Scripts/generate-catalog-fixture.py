#!/usr/bin/env python3
"""Writes the Swift sources of a catalog fixture at DeluxeInjection's published shape: CLASSES classes
with about 2.5 stored properties each (40,000 classes -> 100,000 properties), MARKED of them (150 by
default) marked with @Inject and spread evenly over the classes.

Scripts/bench.sh compiles the sources into a dynamic library against the benchmark runner's modules
(the library links no kernel of its own), opens it with dlopen and times the kernel's pass over it.

Usage: generate-catalog-fixture.py CLASSES OUTPUT_DIR [--marked 150]
"""
import argparse
import pathlib

CLASSES_PER_FILE = 1000  # files of a size the compiler handles well, and batches for its jobs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("classes", type=int)
    parser.add_argument("output", type=pathlib.Path)
    parser.add_argument("--marked", type=int, default=150)
    arguments = parser.parse_args()
    classes, marked_wanted = arguments.classes, arguments.marked
    sources = arguments.output / "Sources"
    sources.mkdir(parents=True, exist_ok=True)
    for stale in sources.glob("*.swift"):
        stale.unlink()

    step = max(classes // marked_wanted, 1)
    marked = properties = 0
    for first in range(0, classes, CLASSES_PER_FILE):
        lines = ["import InjectPlugin", ""]
        for index in range(first, min(first + CLASSES_PER_FILE, classes)):
            count = 2 if index % 2 == 0 else 3  # 2.5 stored properties per class on average
            lines.append(f"final class Fixture{index} {{")
            for field in range(count):
                if field == 0 and index % step == 0 and marked < marked_wanted:
                    lines.append(f"  @Inject var p{field}: Int")
                    marked += 1
                elif field == 1:
                    lines.append(f'  var p{field} = "{index}"')
                else:
                    lines.append(f"  var p{field} = {field}")
            lines.append("}")
            properties += count
        (sources / f"Classes{first // CLASSES_PER_FILE}.swift").write_text("\n".join(lines) + "\n")
    print(f"{classes} classes, {properties} stored properties, {marked} marked, in {sources}")


if __name__ == "__main__":
    main()
