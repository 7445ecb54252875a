# The two commands of the README. Each builds .venv from nothing on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: study test test-nojit lint readme clean clean-kernels

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,notebooks,distributed]'
	touch $(STAMP)

# 100,000 deals with their potential, every misère's EV and the report: about 1 min 50 s here.
DEALS ?= 100000
JOBS ?= 2
EV_OUTCOMES ?= 100
RUN := runs/default

study: $(STAMP)
	$(BIN)/prefstats study --deals $(DEALS) --jobs $(JOBS) --potential --out $(RUN)
	$(BIN)/prefstats misere-ev $(RUN) --n $(EV_OUTCOMES) --jobs $(JOBS)
	$(BIN)/prefstats report $(RUN) --ev $(RUN)/misere_ev.parquet --out reports/report.html
	@echo "Report: reports/report.html. For 10^7 deals without potentials:"
	@echo "  $(BIN)/prefstats study --deals 10000000 --jobs $(JOBS) --out runs/big"
	@echo "  (about 35 minutes on 2 cores; add --backend dask --scheduler tcp://HOST:8786 for a cluster)"

lint: $(STAMP)
	$(BIN)/ruff check prefstats tests
	$(BIN)/ruff format --check prefstats tests
	$(BIN)/mypy  # the package strict, the tests' bodies checked (pyproject.toml)

# pytest exits 5 when it collects no test: that is not a failure of the code.
test: lint
	$(BIN)/python -m pytest; rc=$$?; if [ $$rc -eq 5 ]; then exit 0; fi; exit $$rc
	$(MAKE) test-nojit

# The kernels run as Python (NUMBA_DISABLE_JIT=1) against their naive twins, on small endings
# only: a full deal searched in Python takes minutes (so not the potential's or golden deals').
NOJIT_TESTS := \
	"tests/test_solver.py::test_matches_naive_on_random_endgames[0-False]" \
	"tests/test_solver.py::test_matches_naive_on_random_endgames[None-True]" \
	tests/test_solver.py::test_exhaustive_one_card_deals \
	tests/test_solver.py::test_exhaustive_two_card_deals \
	tests/test_solver.py::test_exhaustive_three_card_deals \
	tests/test_solver.py::test_best_card_keeps_naive_value \
	tests/test_solver.py::test_best_discard_matches_brute_force_small \
	tests/test_solver.py::test_trumps_running_out_in_play_keep_the_naive_value \
	tests/test_solver_late.py tests/test_solver_bounds.py tests/test_solver_misere_catch.py \
	tests/test_solver_hidden.py \
	tests/test_solver_estimate.py::test_estimate_against_its_naive_twin \
	tests/test_solver_estimate.py::test_estimate_exhaustively_on_two_trick_endings_of_two_suits \
	tests/test_solver_estimate.py::test_estimate_with_a_first_card_against_its_naive_twin \
	tests/test_solver_estimate.py::test_the_naive_twin_is_open_play_with_one_discard \
	tests/test_solver_estimate.py::test_estimate_keeps_the_sure_line_where_plain_pimc_gives_it_up \
	tests/test_game_bidding.py::test_kernel_equals_records_exhaustively \
	tests/test_game_deal.py::test_deal_i_is_the_same_whatever_else_is_drawn \
	tests/test_game_deal.py::test_all_layouts_enumerates_each_split_once \
	tests/test_game_deal.py::test_sampled_layouts_hold_the_other_cards \
	tests/test_cli.py::test_the_speed_loop_matches_its_naive_twin

test-nojit: $(STAMP)
	NUMBA_DISABLE_JIT=1 $(BIN)/python -m pytest \
	    -W "ignore:overflow encountered:RuntimeWarning" $(NOJIT_TESTS)

# After regenerating prefstats/data (see its README): write the README's generated blocks.
readme: $(STAMP)
	$(BIN)/python -c "from pathlib import Path; from prefstats.report.answers import \
	fill_readme_blocks, readme_blocks; p = Path('README.md'); \
	p.write_text(fill_readme_blocks(p.read_text(encoding='utf-8'), readme_blocks()), encoding='utf-8')"

# Drops every compiled kernel (where they are kept: prefstats/kernels.py).
clean-kernels:
	rm -rf prefstats/__pycache__/prefstats-kernels-*
	find prefstats -name '*.nbi' -delete -o -name '*.nbc' -delete

clean: clean-kernels
	rm -rf $(VENV) build *.egg-info
