"""The ``prefstats`` command line: ``prefstats deal | bench ...``.

Each subcommand is a small function taking the parsed arguments; the work lives in the package.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from prefstats.cards import Style, format_hand, parse_hand
from prefstats.deal import Deal, deal_many
from prefstats.misere_cli import add_parsers as add_misere_parsers
from prefstats.rules import RULE_SETS, Contract, RuleSet, Strain
from prefstats.simulate import DISCARDS, EVALUATORS, MISERE_RISK_LIMIT

BENCHMARKS = {
    "deal": "prefstats.benchmarks.deal",
    "solver": "prefstats.benchmarks.solver",
    "calibration": "prefstats.benchmarks.calibration",
    "misere": "prefstats.benchmarks.misere",
    "study": "prefstats.benchmarks.study",
    "potential": "prefstats.benchmarks.potential",
}
SEAT_NAMES = ("first", "second", "third")


def cmd_deal(args: argparse.Namespace) -> None:
    """Print ``--n`` random deals: first hand | second hand | third hand | talon."""
    deals = deal_many(args.n, seed=args.seed)
    style: Style = "ru" if args.ru else "en"
    for row in deals:
        print(Deal.from_row(row).format(style))


def cmd_bench(args: argparse.Namespace) -> None:
    """Run one benchmark and print its figures."""
    module = importlib.import_module(BENCHMARKS[args.name])
    module.main()


def parse_hands(text: str) -> list[int]:
    """Three hands ``"first | second | third"``, or a whole deal with the talon (ignored)."""
    fields = text.split("|")
    if len(fields) not in (3, 4):
        raise ValueError(f"give 3 hands (or a deal of 4 parts) separated by '|', got {text!r}")
    hands = []
    for name, field in zip(SEAT_NAMES, fields[:3], strict=False):
        try:
            hands.append(parse_hand(field))
        except ValueError as err:
            raise ValueError(f"{name} hand: {err}") from None
    return hands


def cmd_solve(args: argparse.Namespace) -> None:
    """Print the declarer's double-dummy tricks, or with ``--table`` every contract's."""
    from prefstats.solver import solve

    hands = parse_hands(args.deal)
    if not args.table:
        contract = Contract.parse(args.contract)
        tricks = solve(
            hands, trump=contract.trump, misere=contract.is_misere, declarer=args.declarer,
            leader=args.leader,
        )  # fmt: skip
        print(tricks)
        return
    strains = [*(Contract(6, s) for s in Strain), Contract.misere()]
    header = "".join(f" D{d}L{lead}" for d in range(3) for lead in range(3))
    print(f"{'':7}{header}    (declarer's tricks; D = declarer seat, L = leader seat)")
    for c in strains:
        name = "misère" if c.is_misere else str(c)[1:]
        cells = [
            solve(hands, trump=c.trump, misere=c.is_misere, declarer=d, leader=lead)
            for d in range(3)
            for lead in range(3)
        ]
        print(f"{name:7}" + "".join(f"{t:5d}" for t in cells))


def cmd_ev(args: argparse.Namespace) -> None:
    """Solo and shared misère EV of a hand, with intervals, and the advice (Codex 3.6.9)."""
    from prefstats.catch import misere_risk
    from prefstats.ev import Utility, advice, misere_values

    rules = RuleSet(players=4)
    risk = misere_risk(args.hand, seat=args.seat, discard=args.discard, n=args.n, seed=args.seed)
    values = misere_values(risk.tricks, rules, baseline=args.baseline)
    print(f"hand {format_hand(risk.hand)}, seat {args.seat}, discard {args.discard}, "
          f"{risk.n:,} outcomes (talon and layout drawn); four players, Sochi")  # fmt: skip
    print(f"P(caught) {risk.p_caught}   E[tricks] {risk.mean_tricks}")
    print(values.round(2).to_string())
    print(advice(risk.tricks, rules, Utility(args.risk_aversion)))


def cmd_misere_ev(args: argparse.Namespace) -> None:
    """Solo and shared EV of every misère bid in a run, saved as parquet with provenance
    (computed in resumable chunks under RUN/misere-ev-…)."""
    from prefstats.runs import read_spec, write_table
    from prefstats.simulate import run_misere_ev

    chunks = Path(args.run) / f"misere-ev-n{args.n}-s{args.seed}-{args.discard}"
    ev = run_misere_ev(args.run, chunks, n=args.n, seed=args.seed, discard=args.discard,
                       jobs=args.jobs)  # fmt: skip
    out = Path(args.out or Path(args.run) / "misere_ev.parquet")
    provenance = {"kind": "misere_ev", "run": read_spec(args.run), "n": args.n,
                  "seed": args.seed, "discard": args.discard}  # fmt: skip
    write_table(ev, out, provenance)
    accept = ev.dealer_accepts.mean() if len(ev) else float("nan")
    print(f"{len(ev):,} bid misères; a risk-neutral dealer accepts {accept:.1%}; wrote {out}")


def cmd_export(args: argparse.Namespace) -> None:
    """Write a run's summary (CSV and parquet with provenance) into a small shipped folder."""
    from prefstats.results import summarize
    from prefstats.runs import read_spec, write_table

    summary = summarize(args.run)
    out = Path(args.out)
    provenance = {
        "kind": "summary",
        "run": read_spec(args.run),
        "verdict": summary.attrs["verdict"],
    }
    write_table(summary, out / f"{args.name}.parquet", provenance)
    with open(out / f"{args.name}.csv", "w", encoding="utf-8") as handle:
        handle.write(f"# prefstats summary of {Path(args.run).name}: {provenance['run']}\n")
        summary.to_csv(handle, index=False)
    print(f"wrote {out / args.name}.parquet and .csv")


def cmd_report(args: argparse.Namespace) -> None:
    """Write the HTML report of a run (with the shipped catch rates and EV table if present)."""
    import pandas as pd

    from prefstats.catch import pair_independence
    from prefstats.report import build_report

    has_rates = Path(args.catch_rates).exists()
    catch_rates = pd.read_parquet(args.catch_rates) if has_rates else None
    has_pairs = has_rates and Path(args.catch_pairs).exists()
    pairs = pair_independence(args.catch_pairs, args.catch_rates) if has_pairs else None
    ev_table = pd.read_parquet(args.ev) if args.ev and Path(args.ev).exists() else None
    has_sensitivity = Path(args.sensitivity).exists()
    sensitivity = pd.read_parquet(args.sensitivity) if has_sensitivity else None
    path = build_report(args.run, args.out, catch_rates=catch_rates, catch_pairs=pairs,
                        ev_table=ev_table, sensitivity=sensitivity)  # fmt: skip
    print(f"wrote {path}")


def cmd_study(args: argparse.Namespace) -> None:
    """Run or resume a study, then print its summary and the verdict on Codex note 40."""
    from prefstats.results import summarize
    from prefstats.simulate import StudySpec, run_study

    spec = StudySpec(
        deals=args.deals, seed=args.seed, chunk_size=args.chunk_size, evaluator=args.evaluator,
        discard=args.discard, rules=args.rules, potential=args.potential,
        misere_risk_limit=args.misere_risk_limit,
    )  # fmt: skip
    folder = run_study(
        spec, args.out, jobs=args.jobs, backend=args.backend, scheduler=args.scheduler
    )
    summary = summarize(folder)
    events = ["nine", "ten", "nine or ten", "misère", "all-pass", "misère / nine"]
    print(summary[summary.event.isin(events)].to_string(index=False))
    print(summary.attrs["verdict"])


def cmd_sensitivity(args: argparse.Namespace) -> None:
    """Run one study per misère risk limit (same deals) and write how the played frequencies
    move with it: ``results.sensitivity`` as parquet (provenance) and CSV."""
    from prefstats.results import sensitivity
    from prefstats.runs import read_spec, write_table
    from prefstats.simulate import StudySpec, run_study

    runs = {}
    for limit in args.limits:
        label = "none" if limit is None else f"{limit:g}"
        spec = StudySpec(deals=args.deals, seed=args.seed, chunk_size=args.chunk_size,
                         misere_risk_limit=limit)  # fmt: skip
        runs[label] = run_study(spec, Path(args.runs) / f"misere-limit-{label}", jobs=args.jobs)
    table = sensitivity(runs)
    out = Path(args.out)
    provenance = {"kind": "sensitivity", "setting": "misere_risk_limit",
                  "runs": {label: read_spec(run) for label, run in runs.items()}}  # fmt: skip
    write_table(table, out.with_suffix(".parquet"), provenance)
    with open(out.with_suffix(".csv"), "w", encoding="utf-8") as handle:
        handle.write(f"# prefstats sensitivity to the misère risk limit: {provenance['runs']}\n")
        table.to_csv(handle, index=False)
    print(table[["label", "nine", "misere", "ratio", "ratio_low", "ratio_high", "caught_rate"]]
          .to_string(index=False))  # fmt: skip
    print(f"wrote {out.with_suffix('.parquet')} and .csv")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    parser = argparse.ArgumentParser(
        prog="prefstats", description="Statistics of Preferans: deal, solve, simulate, report."
    )
    sub = parser.add_subparsers(dest="command", required=True)

    deal = sub.add_parser("deal", help="print random deals (first | second | third | talon)")
    deal.add_argument("--n", type=_positive_int, default=5, help="number of deals (default 5)")
    deal.add_argument("--seed", type=int, default=None, help="random seed (default: fresh)")
    deal.add_argument("--ru", action="store_true", help="Russian rank letters (В Д К Т)")
    deal.set_defaults(func=cmd_deal)

    solve = sub.add_parser("solve", help="double-dummy tricks of a deal")
    solve.add_argument("deal", help='"first | second | third" hands (a talon part is ignored)')
    solve.add_argument("--contract", default="6NT", help="e.g. 8♠, 7NT, misère (default 6NT)")
    solve.add_argument("--declarer", type=int, choices=range(3), default=0)
    solve.add_argument("--leader", type=int, choices=range(3), default=0)
    solve.add_argument("--table", action="store_true", help="every strain, declarer and leader")
    solve.set_defaults(func=cmd_solve)

    ev = sub.add_parser("ev", help="solo vs shared misère: EV with intervals and the advice")
    ev.add_argument("hand", help='the misère hand, e.g. "♠7 8 9 ♣7 9 ♦7 8 ♥8 9 10"')
    ev.add_argument("--seat", type=int, choices=range(3), default=1, help="0 leads (default 1)")
    ev.add_argument("--discard", choices=["dd", "sampled", "heuristic"], default="sampled")
    ev.add_argument("--n", type=_positive_int, default=2000, help="outcomes sampled")
    ev.add_argument("--seed", type=int, default=1)
    ev.add_argument("--risk-aversion", type=float, default=0.0, help="CARA, per whist")
    ev.add_argument("--baseline", type=float, default=0.0, help="whists of not bidding misère")
    ev.set_defaults(func=cmd_ev)

    study = sub.add_parser("study", help="deal, bid, solve and score many deals (resumable)")
    study.add_argument("--deals", type=_positive_int, default=100_000, help="number of deals")
    study.add_argument("--seed", type=int, default=1, help="seed of the whole run (default 1)")
    study.add_argument("--jobs", type=_positive_int, default=1, help="worker processes")
    study.add_argument("--backend", choices=["loky", "dask"], default="loky")
    study.add_argument("--scheduler", default=None, help="dask scheduler address (dask backend)")
    study.add_argument("--evaluator", choices=list(EVALUATORS), default="heuristic")
    study.add_argument("--discard", choices=list(DISCARDS), default="heuristic")
    study.add_argument("--rules", choices=sorted(RULE_SETS), default="codex")
    study.add_argument("--potential", action="store_true", help="also every seat's DD potential")
    study.add_argument("--chunk-size", type=_positive_int, default=20_000, help="deals per chunk")
    study.add_argument("--misere-risk-limit", type=_risk_limit, default=MISERE_RISK_LIMIT,
                       help="heuristic bidders bid misère up to this estimated catch risk "
                            "(default %(default)s; 'none': only safe hands)")  # fmt: skip
    study.add_argument("--out", required=True, help="run folder, e.g. data/runs/NAME")
    study.set_defaults(func=cmd_study)

    mev = sub.add_parser("misere-ev", help="solo/shared EV of every misère bid in a run")
    mev.add_argument("run", help="run folder written by 'prefstats study'")
    mev.add_argument("--n", type=_positive_int, default=200, help="outcomes per hand")
    mev.add_argument("--seed", type=int, default=1)
    mev.add_argument("--discard", choices=["dd", "sampled", "heuristic"], default="heuristic")
    mev.add_argument("--jobs", type=_positive_int, default=1, help="worker processes")
    mev.add_argument("--out", default=None, help="parquet file (default RUN/misere_ev.parquet)")
    mev.set_defaults(func=cmd_misere_ev)

    export = sub.add_parser("export", help="write a run's summary table to data/ (csv, parquet)")
    export.add_argument("run", help="run folder written by 'prefstats study'")
    export.add_argument("--out", default="data", help="folder (default data)")
    export.add_argument("--name", default="summary", help="file name without extension")
    export.set_defaults(func=cmd_export)

    report = sub.add_parser("report", help="write the self-contained HTML report of a run")
    report.add_argument("run", help="run folder written by 'prefstats study'")
    report.add_argument("--out", default="reports/report.html")
    report.add_argument("--catch-rates", default="data/catch_rates.parquet")
    report.add_argument("--catch-pairs", default="data/catch_pairs.parquet")
    report.add_argument("--sensitivity", default="data/misere_limit_sensitivity.parquet")
    report.add_argument("--ev", default=None, help="EV table of the run's bid misères (parquet)")
    report.set_defaults(func=cmd_report)

    sens = sub.add_parser(
        "sensitivity",
        help="played nine and misère against the misère risk "
        "limit of the heuristic bidders (one study per limit, same deals)",
    )
    sens.add_argument(
        "--limits",
        type=_risk_limit,
        nargs="+",
        default=[None, 0.1, 0.2, 0.3, 0.4, 0.5],
        help="risk limits ('none' too)",
    )
    sens.add_argument("--deals", type=_positive_int, default=200_000, help="deals per study")
    sens.add_argument("--seed", type=int, default=1)
    sens.add_argument("--jobs", type=_positive_int, default=1, help="worker processes")
    sens.add_argument("--chunk-size", type=_positive_int, default=20_000, help="deals per chunk")
    sens.add_argument("--runs", default="data/runs", help="folder of the studies (resumable)")
    sens.add_argument(
        "--out",
        default="data/misere_limit_sensitivity",
        help="table path without extension (.parquet and .csv are written)",
    )
    sens.set_defaults(func=cmd_sensitivity)

    add_misere_parsers(sub)

    bench = sub.add_parser("bench", help="print benchmark figures")
    bench.add_argument("name", choices=sorted(BENCHMARKS), help="what to benchmark")
    bench.set_defaults(func=cmd_bench)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``prefstats`` console script; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    func: Callable[[argparse.Namespace], None] = args.func
    try:
        func(args)
    except ValueError as err:
        print(f"prefstats {args.command}: {err}", file=sys.stderr)
        return 2
    return 0


def _risk_limit(text: str) -> float | None:
    if text.lower() == "none":
        return None
    value = float(text)
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"must be in [0, 1] or 'none', got {text}")
    return value


def _positive_int(text: str) -> int:
    value = int(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text}")
    return value


if __name__ == "__main__":
    sys.exit(main())
