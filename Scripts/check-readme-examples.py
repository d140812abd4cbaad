#!/usr/bin/env python3
"""Fails unless every ```swift block of every product README (and of the root README) appears, line for line (indentation
ignored), in that product's Tests/<Product>Tests/ReadmeExamples.swift, which the test build compiles.
The Integration package's READMEs (Integration/Sources/<Target>/README.md) are held to the same rule against
Integration/Tests/<Target>Tests/ReadmeExamples.swift, paragraph by paragraph. So README examples cannot rot."""
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parent.parent
failures = []
for readme in sorted(root.glob("Packages/*/README.md")):
    product = readme.parent.name
    examples = root / "Tests" / f"{product}Tests" / "ReadmeExamples.swift"
    blocks = re.findall(r"```swift\n(.*?)```", readme.read_text(), re.S)
    if blocks and not examples.exists():
        failures.append(f"{readme}: has Swift examples but {examples} is missing")
        continue
    # Fixture types in the test file may be `private`; the README shows them without it.
    compiled = [re.sub(r"\bprivate ", "", line.strip()) for line in examples.read_text().splitlines()] if blocks else []
    for block in blocks:
        lines = [line.strip() for line in block.strip("\n").splitlines()]
        found = any(compiled[i:i + len(lines)] == lines for i in range(len(compiled) - len(lines) + 1))
        if not found:
            failures.append(f"{readme}: this example is not in {examples.name}:\n{block}")

def compiled_lines(path):
    # Fixture types in the test file may be `private`; the README shows them without it.
    return [re.sub(r"\bprivate ", "", line.strip()) for line in path.read_text().splitlines()]


def contains(compiled, lines):
    return any(compiled[i:i + len(lines)] == lines for i in range(len(compiled) - len(lines) + 1))


# The Integration package's plugins and tools: each paragraph of each example must appear (an example may
# show a declaration and the statements that use it, which a test keeps apart).
for readme in sorted(root.glob("Integration/Sources/*/README.md")):
    target = readme.parent.name
    examples = root / "Integration" / "Tests" / f"{target}Tests" / "ReadmeExamples.swift"
    blocks = re.findall(r"```swift\n(.*?)```", readme.read_text(), re.S)
    if blocks and not examples.exists():
        failures.append(f"{readme}: has Swift examples but {examples} is missing")
        continue
    compiled = compiled_lines(examples) if blocks else []
    for block in blocks:
        for paragraph in block.strip("\n").split("\n\n"):
            if not contains(compiled, [line.strip() for line in paragraph.strip("\n").splitlines()]):
                failures.append(f"{readme}: this example is not in {examples.name}:\n{paragraph}")
# The root README's examples may come from any product's ReadmeExamples.swift.
all_compiled = []
for examples in sorted(root.glob("Tests/*Tests/ReadmeExamples.swift")):
    all_compiled += [re.sub(r"\bprivate ", "", line.strip()) for line in examples.read_text().splitlines()]
# A root example may join declarations and statements, so each of its paragraphs must appear.
for block in re.findall(r"```swift\n(.*?)```", (root / "README.md").read_text(), re.S):
    for paragraph in block.strip("\n").split("\n\n"):
        lines = [line.strip() for line in paragraph.strip("\n").splitlines()]
        if not any(all_compiled[i:i + len(lines)] == lines for i in range(len(all_compiled) - len(lines) + 1)):
            failures.append(f"README.md: this example is not in any Tests/*/ReadmeExamples.swift:\n{paragraph}")
for failure in failures:
    print(failure, file=sys.stderr)
sys.exit(1 if failures else 0)
