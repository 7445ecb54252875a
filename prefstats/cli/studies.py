"""``prefstats study``, ``sensitivity``, ``misere-ev``, ``export``, ``report`` and
``catch-tables``: runs of many deals, and the tables and report made from them."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import pandas as pd

from prefstats.cli.options import (
    add_scoring,
    deal_count,
    examples,
    integer,
    positive_int,
    risk_limit,
    worker_count,
)
from prefstats.data import SENSITIVITY_TABLE, shipped
from prefstats.game.rules import RULE_SETS
from prefstats.misere.tables import pair_independence
from prefstats.players.discards import DISCARDS
from prefstats.players.evaluators import EVALUATORS, HeuristicEvaluator
from prefstats.report.html import build_report
from prefstats.studies import catch_information, catch_rates, catch_tables
from prefstats.studies.misere_ev import run_misere_ev
from prefstats.studies.results import FINDINGS_EVENTS, sensitivity, summarize
from prefstats.studies.runs import read_spec
from prefstats.studies.storage import write_shipped, write_table
from prefstats.studies.study import StudySpec, run_study

JOBS_HELP = "worker processes (at most the cores here)"


def add_parsers(sub: Any) -> None:
    """Add the run commands."""
    study = sub.add_parser(
        "study",
        help="deal, bid, solve and score many deals (resumable)",
        description="Deal, bid, take the talon, discard, play double-dummy and score many deals "
        "into a run folder of sealed chunks; rerunning the command resumes it.",
        **examples(
            "prefstats study --deals 100000 --out runs/small",
            "prefstats study --deals 1000000 --jobs 2 --potential --out runs/big",
            "prefstats study --deals 20000 --discard sampled --out runs/sampled",
            "prefstats report runs/small --out reports/small.html",
        ),
    )
    study.add_argument("--deals", type=deal_count, default=100_000, help="number of deals")
    study.add_argument("--seed", type=integer, default=1, help="seed of the whole run (default 1)")
    _add_parallel(study)
    study.add_argument(
        "--evaluator",
        choices=list(EVALUATORS),
        default="heuristic",
        help="how each seat judges its hand for the auction",
    )
    study.add_argument(
        "--discard",
        choices=list(DISCARDS),
        default="heuristic",
        help="how each declarer discards (heuristic: the fast rule of thumb the "
        "shipped tables use; sampled: the realistic policy; dd: the best "
        "knowing the layout, an upper bound)",
    )
    study.add_argument(
        "--rules",
        choices=sorted(RULE_SETS),
        default="codex",
        help="codex: three players; codex4: four, the dealer sits out",
    )
    add_scoring(study)
    study.add_argument(
        "--potential", action="store_true", help="also every seat's double-dummy potential"
    )
    study.add_argument(
        "--chunk-size",
        type=positive_int,
        default=None,
        help="deals per chunk (default: a few seconds of work; it never changes the results)",
    )
    study.add_argument(
        "--misere-risk-limit",
        type=risk_limit,
        default=HeuristicEvaluator.misere_risk_limit,
        help="heuristic bidders bid misère up to this estimated catch risk "
        "(default %(default)s; 'none': only safe hands)",
    )
    study.add_argument("--out", required=True, help="run folder, e.g. runs/NAME")
    study.set_defaults(func=cmd_study)

    mev = sub.add_parser("misere-ev", help="solo/shared EV of every misère played in a run")
    mev.add_argument("run", help="run folder written by 'prefstats study'")
    mev.add_argument("--n", type=positive_int, default=200, help="outcomes per hand")
    mev.add_argument("--seed", type=integer, default=1)
    mev.add_argument(
        "--discard",
        choices=list(DISCARDS),
        default="heuristic",
        help="how each declarer discards (default heuristic)",
    )
    add_scoring(mev)
    mev.add_argument("--jobs", type=worker_count, default=1, help=JOBS_HELP)
    mev.add_argument("--out", default=None, help="parquet file (default RUN/misere_ev.parquet)")
    mev.set_defaults(func=cmd_misere_ev)

    export = sub.add_parser("export", help="write a run's summary table (csv, parquet)")
    export.add_argument("run", help="run folder written by 'prefstats study'")
    export.add_argument("--out", default=".", help="folder (default: here)")
    export.add_argument("--name", default="summary", help="file name without extension")
    export.set_defaults(func=cmd_export)

    report = sub.add_parser("report", help="write the self-contained HTML report of a run")
    report.add_argument("run", help="run folder written by 'prefstats study'")
    report.add_argument("--out", default="reports/report.html")
    report.add_argument("--catch-rates", default=None, help="default: the shipped table")
    report.add_argument("--catch-pairs", default=None, help="default: the shipped table")
    report.add_argument("--sensitivity", default=None, help="default: the shipped table")
    report.add_argument("--ev", default=None, help="EV table of the run's misères (parquet)")
    report.set_defaults(func=cmd_report)

    sens = sub.add_parser(
        "sensitivity",
        help="played nine and misère against the misère risk "
        "limit of the heuristic bidders (one study per limit, same deals)",
    )
    sens.add_argument(
        "--limits",
        type=risk_limit,
        nargs="+",
        default=[None, 0.1, 0.2, 0.3, 0.4, 0.5],
        help="risk limits ('none' too)",
    )
    sens.add_argument("--deals", type=deal_count, default=200_000, help="deals per study")
    sens.add_argument("--seed", type=integer, default=1)
    sens.add_argument("--jobs", type=worker_count, default=1, help=JOBS_HELP)
    sens.add_argument(
        "--chunk-size",
        type=positive_int,
        default=None,
        help="deals per chunk (default: a few seconds of work)",
    )
    sens.add_argument("--runs", default="runs", help="folder of the studies (resumable)")
    sens.add_argument(
        "--out",
        default=SENSITIVITY_TABLE,
        help="table path without extension (.parquet and .csv are written)",
    )
    sens.set_defaults(func=cmd_sensitivity)

    tables = sub.add_parser("catch-tables", help="generate the catch-rate tables (hours)")
    tables.add_argument(
        "--only",
        choices=["rates", "pairs"],
        default=None,
        help="one table (default: both)",
    )
    tables.add_argument(
        "--n",
        type=positive_int,
        default=catch_tables.N_SINGLE,
        help="clean-sides layouts per holding",
    )
    tables.add_argument(
        "--n-slow",
        type=positive_int,
        default=catch_tables.N_SINGLE_SLOW,
        help="clean-sides layouts for catchable holdings of 3-4 cards",
    )
    tables.add_argument(
        "--lowest-n",
        type=positive_int,
        default=catch_tables.N_LOWEST,
        help="lowest-sides layouts per holding",
    )
    tables.add_argument(
        "--dealt",
        type=positive_int,
        default=catch_tables.DEALT_DEALS,
        help="as-dealt: the first DEALT deals of --dealt-seed",
    )
    tables.add_argument("--dealt-seed", type=integer, default=catch_tables.DEALT_SEED)
    tables.add_argument(
        "--pairs-n", type=positive_int, default=catch_tables.N_PAIR, help="layouts per pair"
    )
    tables.add_argument(
        "--hands",
        type=positive_int,
        default=catch_information.N_HANDS,
        help="rates, paired design: hands a holding and setting",
    )
    tables.add_argument(
        "--per-hand",
        type=positive_int,
        default=catch_information.PER_HAND,
        help="rates, paired design: layouts a hand (his blind lead is chosen over them)",
    )
    tables.add_argument("--seed", type=integer, default=catch_tables.SEED)
    tables.add_argument("--jobs", type=worker_count, default=1, help=JOBS_HELP)
    tables.add_argument("--runs", type=Path, default=Path("runs"))
    tables.add_argument(
        "--out",
        type=Path,
        default=None,
        help="folder of the tables (default: the package's data folder)",
    )
    tables.set_defaults(func=cmd_catch_tables)


def _add_parallel(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--jobs", type=worker_count, default=1, help=JOBS_HELP)
    parser.add_argument(
        "--backend",
        choices=["loky", "dask"],
        default="loky",
        help="where the chunks run: local processes, or a dask cluster",
    )
    parser.add_argument("--scheduler", default=None, help="dask scheduler address (dask backend)")


def study_spec(args: argparse.Namespace) -> StudySpec:
    """The StudySpec of ``prefstats study``'s arguments."""
    return StudySpec(
        deals=args.deals,
        seed=args.seed,
        chunk_size=args.chunk_size,
        evaluator=args.evaluator,
        discard=args.discard,
        rules=args.rules,
        scoring=args.scoring,
        potential=args.potential,
        misere_risk_limit=args.misere_risk_limit,
    )


def sensitivity_specs(args: argparse.Namespace) -> dict[str, StudySpec]:
    """The StudySpec of each risk limit of ``prefstats sensitivity``'s arguments."""
    return {
        "none" if limit is None else f"{limit:g}": StudySpec(
            deals=args.deals, seed=args.seed, chunk_size=args.chunk_size, misere_risk_limit=limit
        )
        for limit in args.limits
    }


def cmd_study(args: argparse.Namespace) -> None:
    """Run or resume a study, then print its summary and the verdict on Codex note 40."""
    folder = run_study(
        study_spec(args), args.out, jobs=args.jobs, backend=args.backend, scheduler=args.scheduler
    )
    summary = summarize(folder)
    print(summary[summary.event.isin(FINDINGS_EVENTS)].to_string(index=False))
    print(summary.attrs["verdict"])


def cmd_misere_ev(args: argparse.Namespace) -> None:
    """Solo and shared EV of every misère of a run, saved as parquet with provenance
    (computed in resumable chunks under RUN/misere-ev-…)."""
    chunks = Path(args.run) / f"misere-ev-n{args.n}-s{args.seed}-{args.discard}-{args.scoring}"
    ev = run_misere_ev(
        args.run,
        chunks,
        n=args.n,
        seed=args.seed,
        discard=args.discard,
        scoring=args.scoring,
        jobs=args.jobs,
    )
    out = Path(args.out or Path(args.run) / "misere_ev.parquet")
    provenance = {
        "kind": "misere_ev",
        "run": read_spec(args.run),
        "n": args.n,
        "seed": args.seed,
        "discard": args.discard,
        "scoring": args.scoring,
    }
    write_table(ev, out, provenance)
    accept = ev.dealer_accepts.mean() if len(ev) else float("nan")
    print(f"{len(ev):,} misères; a risk-neutral dealer accepts {accept:.1%}; wrote {out}")


def cmd_export(args: argparse.Namespace) -> None:
    """Write a run's summary as a shipped table (parquet with provenance, CSV with header)."""
    summary = summarize(args.run)
    provenance = {
        "kind": "summary",
        "run": read_spec(args.run),
        "verdict": summary.attrs["verdict"],
    }
    title = f"prefstats summary of {json.dumps(Path(args.run).name)}"  # escaped: one line
    written = write_shipped(summary, Path(args.out) / args.name, provenance, title)
    print("wrote " + " and ".join(str(p) for p in written))


def cmd_report(args: argparse.Namespace) -> None:
    """Write the HTML report of a run, with the shipped catch rates and sensitivity."""
    rates_path = Path(args.catch_rates) if args.catch_rates else shipped("catch_rates.parquet")
    pairs_path = Path(args.catch_pairs) if args.catch_pairs else shipped("catch_pairs.parquet")
    sens_path = (
        Path(args.sensitivity) if args.sensitivity else shipped(f"{SENSITIVITY_TABLE}.parquet")
    )
    if Path(args.out).is_dir():
        raise ValueError(f"--out {args.out} is a folder: give the report's file name")
    ev_table = pd.read_parquet(args.ev) if args.ev else None
    path = build_report(
        args.run,
        args.out,
        catch_rates=pd.read_parquet(rates_path),
        catch_pairs=pair_independence(pairs_path, rates_path),
        ev_table=ev_table,
        sensitivity=pd.read_parquet(sens_path),
    )
    print(f"wrote {path}")


def cmd_sensitivity(args: argparse.Namespace) -> None:
    """Run one study per misère risk limit (same deals) and write how the played frequencies
    move with it: ``results.sensitivity`` as a shipped table."""
    runs = {
        label: run_study(spec, Path(args.runs) / f"misere-limit-{label}", jobs=args.jobs)
        for label, spec in sensitivity_specs(args).items()
    }
    table = sensitivity(runs)
    provenance = {
        "kind": "sensitivity",
        "setting": "misere_risk_limit",
        "runs": {label: read_spec(run) for label, run in runs.items()},
    }
    written = write_shipped(
        table, Path(args.out), provenance, "prefstats sensitivity to the misère risk limit"
    )
    print(
        table[
            ["label", "nine", "misere", "ratio", "ratio_low", "ratio_high", "caught_rate"]
        ].to_string(index=False)
    )
    print("wrote " + " and ".join(str(p) for p in written))


def cmd_catch_tables(args: argparse.Namespace) -> None:
    """Generate (or resume) the shipped catch-rate tables."""
    if args.only in (None, "rates"):
        table = catch_rates.build_rates(
            args.runs,
            args.out,
            n=args.n,
            n_slow=args.n_slow,
            n_lowest=args.lowest_n,
            dealt=args.dealt,
            dealt_seed=args.dealt_seed,
            hands=args.hands,
            per_hand=args.per_hand,
            seed=args.seed,
            jobs=args.jobs,
        )
        print(f"catch_rates: {len(table)} rows written")
    if args.only in (None, "pairs"):
        table = catch_tables.build_pairs(
            args.runs, args.out, n=args.pairs_n, seed=args.seed, jobs=args.jobs
        )
        print(f"catch_pairs: {len(table)} rows written")
