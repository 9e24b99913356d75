#!/usr/bin/env python3
"""OnTheMapKit's platform floor (iOS 16, macOS 13) holds for every target of this package.

SwiftPM on Apple platforms refuses a build when any target of the graph, used or not, depends on
a product whose package declares a higher minimum than the target's own package: "the library
'X' requires macos 13.0, but depends on the product 'Y' which requires macos 14.0". An app adding
this package by URL would meet that error for the server's targets too, so the rule is checked
here, on Linux, from the manifests themselves (`swift package dump-package`): ours, and that of
every package one of our targets takes a product from. A dependency made conditional on other
platforms (`.when(platforms: [.linux])`) is not checked for Apple platforms, as SwiftPM does.

A second rule an app meets when it adds the package by version: SwiftPM refuses "the target 'X'
in product 'Y' contains unsafe build flags" for any target in the closure of a library product it
takes. Only targets no library reaches (the geocoder, optimized in debug builds too) may carry them.

    scripts/test/platform-floor-check.py   (from the repository, after `swift build` resolved)
"""
import json
import pathlib
import subprocess
import sys

# What OnTheMapKit promises app developers.
KIT_FLOOR = {"macos": (13, 0), "ios": (16, 0)}


def version(text):
    parts = [int(part) for part in text.split(".")]
    return tuple(parts + [0] * (2 - len(parts)))[:3]


def manifest(path):
    output = subprocess.run(["swift", "package", "dump-package", "--package-path", str(path)],
                            check=True, capture_output=True, text=True).stdout
    return json.loads(output)


def floors(package):
    return {entry["platformName"]: version(entry["version"]) for entry in package.get("platforms") or []}


def checkout(identity):
    for folder in pathlib.Path(".build/checkouts").iterdir():
        if folder.name.lower() == identity.lower():
            return folder
    sys.exit(f"platform-floor-check: no checkout of {identity} in .build/checkouts (run swift build first)")


def unsafe_flags_in_libraries(root):
    """Every library product whose closure (its targets and theirs, within this package) holds a
    target with unsafe build flags."""
    targets = {target["name"]: target for target in root["targets"]}

    def add_closure(name, seen):
        """Adds `name` and the targets of this package it depends on, directly or not, to `seen`."""
        if name in seen or name not in targets:
            return
        seen.add(name)
        for dependency in targets[name].get("dependencies", []):
            for kind in ("byName", "target"):
                if kind in dependency:
                    add_closure(dependency[kind][0], seen)

    failures = []
    for product in root["products"]:
        if "library" not in product["type"]:
            continue
        reached = set()
        for name in product["targets"]:
            add_closure(name, reached)
        for name in sorted(reached):
            if any("unsafeFlags" in setting["kind"] for setting in targets[name].get("settings") or []):
                failures.append(f"the target '{name}' in the library '{product['name']}' has unsafe build flags: "
                                "an app adding the package by version could not build")
    return failures


def main():
    root = manifest(".")
    ours = floors(root)
    failures = unsafe_flags_in_libraries(root)
    for platform, floor in KIT_FLOOR.items():
        declared = ours.get(platform)
        if declared is None or declared > floor:
            failures.append(f"the package declares {platform} {declared}, above OnTheMapKit's floor {floor}")

    theirs = {}
    for target in root["targets"]:
        for dependency in target.get("dependencies", []):
            if "product" not in dependency:
                continue
            product, package, _aliases, condition = dependency["product"]
            only_on = set((condition or {}).get("platformNames") or [])
            if package not in theirs:
                theirs[package] = floors(manifest(checkout(package)))
            for platform in KIT_FLOOR:
                if only_on and platform not in only_on:
                    continue
                needed = theirs[package].get(platform)
                if needed and ours.get(platform) and needed > ours[platform]:
                    failures.append(
                        f"the target '{target['name']}' requires {platform} {ours[platform]}, but depends on the "
                        f"product '{product}' ({package}) which requires {platform} {needed}")
    for failure in failures:
        print(f"FAIL {failure}")
    checked = len(theirs)
    if failures:
        sys.exit(1)
    shown = {platform: ".".join(map(str, ours[platform])) for platform in KIT_FLOOR}
    print(f"platform floor: every target fits macOS {shown['macos']} and iOS {shown['ios']} "
          f"({checked} packages' manifests checked); no library reaches a target with unsafe flags")


if __name__ == "__main__":
    main()
