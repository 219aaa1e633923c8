"""Benchmark of issue 15: photo-like pictures of simulated games in, how well `printgen score` reads them out.

Run from a checkout: python benchmarks/scan.py [--photos 500] [--seed 1] [--workers 2]
Pictures are made first (in parallel, by the photo simulator of the tests, tests/scan/simulator: every
score-sheet layout, shuffled gemixxt-B sheets, whole 2-up pages, every kind of pen, light and camera) and
written as JPEG files; then each is read from its file one after the other, as `printgen score` would, and
timed. Prints field accuracy, whole-sheet accuracy, how many wrong sheets were flagged (uncertain, illegal
or unreadable) and seconds per photo, each beside its target. The simulator is not installed with
printgen, so this script puts the checkout it lives in first on sys.path: it measures that checkout's
printgen with that checkout's simulator.
"""

from __future__ import annotations

import argparse
import pickle
import sys
import tempfile
import time
from collections import Counter
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout: tests.scan.simulator, printgen

LAYOUTS = ("qwixx-standard", "qwixx-big-points", "qwixx-gemixxt-a", "qwixx-gemixxt-b", "qwixx-bonus-a",
           "qwixx-bonus-b", "qwixx-cards")


def make(job: tuple[int, int, str]) -> tuple[int, str]:
    """Make picture `index` from `seed` into `folder`: its JPEG file and its truth."""
    index, seed, folder = job
    from printgen import layouts
    from tests.scan.simulator.synthetic import sample

    picture = sample([layouts.load(name) for name in LAYOUTS], seed)  # type: ignore[misc]
    path = Path(folder) / f"{index:05d}.jpg"
    path.write_bytes(picture.jpeg)
    (Path(folder) / f"{index:05d}.truth").write_bytes(pickle.dumps((picture.truths, picture.conditions)))
    return index, picture.truths[0].layout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--failures", type=int, default=25, help="how many failed sheets to list")
    parser.add_argument("--keep", type=Path, default=None,
                        help="make the pictures in this folder and keep them (pictures already there are reused)")
    args = parser.parse_args()

    from printgen.scan.picture import Refused, open_photo
    from printgen.scan.reader import Reader
    from tests.scan.simulator.tally import Tally

    with tempfile.TemporaryDirectory() as temporary:
        folder = str(args.keep or temporary)
        Path(folder).mkdir(parents=True, exist_ok=True)
        start = time.perf_counter()
        jobs = [(i, args.seed * 1_000_003 + i, folder) for i in range(args.photos)
                if not (Path(folder) / f"{i:05d}.truth").exists()]
        with Pool(args.workers) as pool:
            made = Counter(layout for _, layout in pool.imap_unordered(make, jobs, chunksize=4))
        print(f"made {len(jobs)} pictures in {time.perf_counter() - start:.0f} s: "
              + ", ".join(f"{name} {made[name]}" for name in LAYOUTS))
        reader = Reader()
        tally = Tally()
        by_layout: dict[str, Tally] = {name: Tally() for name in LAYOUTS}
        times = []
        for index in range(args.photos):
            path = Path(folder) / f"{index:05d}.jpg"
            truths, conditions = pickle.loads((Path(folder) / f"{index:05d}.truth").read_bytes())
            began = time.perf_counter()
            image = open_photo(path)
            assert not isinstance(image, Refused), image
            results = reader.read_image(image, path.name)
            times.append(time.perf_counter() - began)
            label = f"{path.name} {truths[0].layout} {conditions}"
            tally.add(label, truths, results)
            by_layout[truths[0].layout].add(label, truths, results)
    times.sort()
    wrong = tally.sheets - tally.sheets_right
    print(f"{tally.sheets} sheets in {args.photos} photos")
    print(f"fields right           {tally.fields_right / tally.fields:8.3%}   target >= 99.5 %")
    print(f"sheets entirely right  {tally.sheets_right / tally.sheets:8.3%}   target >= 97 %")
    print(f"wrong sheets flagged   {tally.wrong_flagged / max(wrong, 1):8.1%}   target >= 90 %   "
          f"({tally.wrong_flagged} of {wrong}; {tally.unreadable} unreadable)")
    print(f"seconds per photo      {sum(times) / len(times):8.3f}   target < 1 s   "
          f"(median {times[len(times) // 2]:.3f}, slowest {times[-1]:.3f})")
    print(f"right sheets flagged all the same: {tally.flagged_right} of {tally.sheets_right}")
    for name, part in by_layout.items():
        if part.sheets:
            print(f"  {name:<18} sheets right {part.sheets_right:4d} of {part.sheets:4d}   "
                  f"fields right {part.fields_right / max(part.fields, 1):8.3%}")
    for line in tally.failures[:args.failures]:
        print("  " + line)


if __name__ == "__main__":
    main()
