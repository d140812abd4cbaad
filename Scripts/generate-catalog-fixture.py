#!/usr/bin/env python3
"""Writes a SwiftPM package whose dynamic library holds N classes at DeluxeInjection's published shape:
about 2.5 stored properties per class (40,000 classes -> 100,000 properties), 150 of them marked with
@Inject, spread evenly. The benchmark opens the library with dlopen and times the kernel's pass over it.

Usage: generate-catalog-fixture.py CLASSES OUTPUT_DIR ROOT_PACKAGE_DIR
"""
import pathlib
import sys

MARKED = 150
CLASSES_PER_FILE = 1000


def main() -> None:
    classes, output, root = int(sys.argv[1]), pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3]).resolve()
    name = f"CatalogFixture{classes}"
    sources = output / "Sources" / name
    sources.mkdir(parents=True, exist_ok=True)
    (output / "Package.swift").write_text(
        "// swift-tools-version: 6.0\n"
        "import PackageDescription\n"
        f'let package = Package(name: "{name}",\n'
        f'  products: [.library(name: "{name}", type: .dynamic, targets: ["{name}"])],\n'
        f'  dependencies: [.package(name: "DeluxeInjection", path: "{root}")],\n'
        f'  targets: [.target(name: "{name}", dependencies: [.product(name: "InjectPlugin", package: "DeluxeInjection")])],\n'
        "  swiftLanguageModes: [.v6])\n")
    step = max(classes // MARKED, 1)
    marked = 0
    for first in range(0, classes, CLASSES_PER_FILE):
        lines = ["import InjectPlugin", ""]
        for index in range(first, min(first + CLASSES_PER_FILE, classes)):
            count = 2 if index % 2 == 0 else 3  # 2.5 stored properties per class on average
            lines.append(f"public final class Fixture{index} {{")
            for field in range(count):
                if field == 0 and index % step == 0 and marked < MARKED:
                    lines.append(f"  @Inject public var p{field}: Int")
                    marked += 1
                else:
                    lines.append(f"  public var p{field}: Int = {field}")
            lines.append("  public init() {}")
            lines.append("}")
        (sources / f"Classes{first // CLASSES_PER_FILE}.swift").write_text("\n".join(lines) + "\n")
    print(f"{name}: {classes} classes, {marked} marked properties in {output}")


if __name__ == "__main__":
    main()
