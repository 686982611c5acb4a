# The golden CLI cases. Paths are relative to the source tree.

# Usage errors
golden_case(unknown_command EXIT 2 STDERR "unknown command 'frobnicate'" ARGS frobnicate)
golden_case(unknown_option EXIT 2 STDERR "unknown option --bogus" ARGS simulate --bogus 1)
golden_case(bad_number EXIT 2 STDERR "--pp: expected an integer, got 'four'" ARGS simulate --pp four)
golden_case(unknown_model EXIT 2 STDERR "--model: .*llama-3-8b" ARGS simulate --model gpt-5)
golden_case(unknown_preset EXIT 2 STDERR "chat-sft" ARGS info --preset nope)
# The old name of short-heavy-tail stays accepted for old command lines (its help line says so).
golden_case(preset_old_name STDOUT "\"count\": 10," ARGS info --preset long-tail-256k --batch-count 10 --json -)
golden_case(unknown_strategy EXIT 2 STDERR "unknown strategy 'magic'" ARGS compare --strategies fixed,magic)
golden_case(missing_file EXIT 2 STDERR "does-not-exist.csv" ARGS info does-not-exist.csv)

# info over every length-file format and a preset
golden_case(info_csv ARGS info samples/lengths/chat_sft_lengths.csv --json -)
golden_case(info_multicolumn ARGS info samples/lengths/longalign_mix.csv --column length --json -)
golden_case(info_histogram ARGS info samples/lengths/length_histogram.csv --json -)
golden_case(info_json ARGS info samples/lengths/chat_lengths.json --json -)
golden_case(info_json_histogram ARGS info samples/lengths/long_context_histogram.json --json -)
golden_case(info_jsonl ARGS info samples/lengths/sft_records.jsonl --column num_tokens --json -)
golden_case(info_preset ARGS info --preset chat-sft --seed 7 --json -)

# simulate hand-made plans (explicit times, no cost model)
golden_case(simulate_analytic_1f1b ARGS simulate --plan samples/plans/analytic-1f1b.json --json -)
golden_case(simulate_asymmetric ARGS simulate --plan samples/plans/asymmetric-example.json --json -)

# bad plans: one line naming the file, the JSON path or the rule
golden_case(plan_missing_field EXIT 2 STDERR "bad-missing-field.json: .*segments: missing required field"
  ARGS simulate --plan samples/plans/bad-missing-field.json)
golden_case(plan_unknown_sequence EXIT 2 STDERR "bad-unknown-sequence.json: .*unknown sequence \"X7\""
  ARGS simulate --plan samples/plans/bad-unknown-sequence.json)
golden_case(plan_overlapping EXIT 2 STDERR "bad-overlapping-tokens.json: .*structure: tokens .1024,2048. of sequence a"
  ARGS simulate --plan samples/plans/bad-overlapping-tokens.json)
golden_case(plan_l2_order EXIT 2 STDERR "bad-l2-order.json: .*L2: backward pack B1"
  ARGS simulate --plan samples/plans/bad-l2-order.json)

# bad length files: exit 2 and one line naming the file, the line or JSON path, and the reason
golden_case(lengths_negative EXIT 2 STDERR "negative.csv: line 4: " ARGS info tests/cli/inputs/negative.csv)
golden_case(lengths_empty EXIT 2 STDERR "empty.csv: .*empty" ARGS info tests/cli/inputs/empty.csv)
golden_case(lengths_string EXIT 2 STDERR "string-length.json: .*lengths.2.: length .x. is a string" ARGS info tests/cli/inputs/string-length.json)
golden_case(lengths_nan EXIT 2 STDERR "nan.jsonl: line 2" ARGS info tests/cli/inputs/nan.jsonl --column num_tokens)
golden_case(lengths_huge EXIT 2 STDERR "huge.csv: line 1" ARGS simulate --lengths tests/cli/inputs/huge.csv)
golden_case(lengths_no_column EXIT 2 STDERR "two-columns.csv.*length" ARGS info tests/cli/inputs/two-columns.csv --column tokens)

# workload-driven runs with the cost model (deterministic: wall-clock timings are ignored keys)
golden_case(simulate_chat_slimpack ARGS simulate --preset chat-sft --batch-tokens 262144 --strategy slimpack --json -)
golden_case(simulate_longtail_dp2 ARGS simulate --preset short-heavy-tail --batch-tokens 524288 --dp 2 --strategy slimpack --json -)
golden_case(simulate_lengths_file ARGS simulate --lengths samples/lengths/longalign_mix.csv --column length --strategy sliced --slice 4096 --json -)
golden_case(compare_long_sft ARGS compare --preset long-sft-128k --batch-tokens 524288 --json -)
golden_case(compare_infeasible_row ARGS compare --preset long-sft-128k --tp 2 --recompute none --strategies fixed,slimpack --json -)
golden_case(sweep_slice ARGS sweep --preset short-heavy-tail --batch-tokens 524288 --slice 2048,8192,32768 --json -)
golden_case(solve_plan ARGS solve --preset chat-sft --batch-tokens 65536 --strategy sliced --slice 2048 --out -)
golden_case(fit_costs_csv ARGS fit-costs samples/costs/h100-llama-3-8b-layer.csv --out -)
# fit-costs from a trace: the round trip of `simulate --plan calibrate-plan.json --trace
# calibrate.trace.json` refits the default model's coefficients (r2 1, refit error 0)
golden_case(fit_costs_trace_round_trip ARGS fit-costs --trace tests/cli/inputs/calibrate.trace.json --plan tests/cli/inputs/calibrate-plan.json --out -)
golden_case(fit_costs_trace_no_plan EXIT 2 STDERR "--trace needs --plan FILE"
  ARGS fit-costs --trace tests/cli/inputs/calibrate.trace.json)
golden_case(fit_costs_trace_other_plan EXIT 2 STDERR "calibrate.trace.json: no measured unit of rule set 'slimpack' is a model-priced pack of the plan"
  ARGS fit-costs --trace tests/cli/inputs/calibrate.trace.json --plan samples/plans/asymmetric-example.json)
golden_case(fit_costs_trace_wrong_rules EXIT 2 STDERR "calibrate.trace.json: no event matches the rules of 'megatron'"
  ARGS fit-costs --trace tests/cli/inputs/calibrate.trace.json --plan tests/cli/inputs/calibrate-plan.json --trace-rules megatron)
golden_case(fit_costs_trace_and_input EXIT 2 STDERR "give either INPUT or --trace, not both"
  ARGS fit-costs samples/costs/h100-llama-3-8b-layer.csv --trace tests/cli/inputs/calibrate.trace.json)
golden_case(fit_costs_plan_without_trace EXIT 2 STDERR "--plan needs --trace FILE"
  ARGS fit-costs samples/costs/h100-llama-3-8b-layer.csv --plan tests/cli/inputs/calibrate-plan.json)
golden_case(trace_info_kineto ARGS trace info samples/traces/kineto_small.json --json -)
golden_case(trace_info_gzip ARGS trace info samples/traces/kineto_small.json.gz --json -)
golden_case(bad_plan_schedule EXIT 2 STDERR "--schedule: unknown schedule 'zigzag'" ARGS simulate --schedule zigzag)
golden_case(infeasible_memory EXIT 2 STDERR "does not fit stage 0 memory" ARGS simulate --preset long-sft-128k --tp 2 --recompute none)
golden_case(trace_missing EXIT 2 STDERR "nope.json" ARGS trace info nope.json)
# One bad file among several: the good one is printed, then the error naming the bad one (exit 2).
golden_case(trace_info_one_bad_of_two EXIT 2 STDERR "slimpack trace info: nope.json: cannot open"
  STDOUT "^samples/traces/kineto_small.json\n  events   30 "
  ARGS trace info samples/traces/kineto_small.json nope.json)
# Unmatched B/E events are counted in the JSON and said on stderr (an "E" with no open "B", and a
# "B" never closed).
golden_case(trace_info_unmatched STDERR "warning: tests/cli/inputs/unmatched.trace.json: 2 unmatched B/E events"
  ARGS trace info tests/cli/inputs/unmatched.trace.json --json -)
golden_case(trace_info_unmatched_text STDOUT "  warning  2 unmatched B/E events \\(an \"E\" with no open \"B\" on its thread, or a \"B\" never closed\\): not counted"
  ARGS trace info tests/cli/inputs/unmatched.trace.json)
golden_case(sweep_infeasible_row ARGS sweep --preset short-heavy-tail --tp 2 --recompute none --memory-cap 68 --batch-tokens 524288 --slice 2048,16384 --json -)

# long context: context window, recompute, context parallelism, stage split, variants
golden_case(compare_long_256k_variants ARGS compare --preset long-256k --tp 2 --pp 4 --dp 2 --batch-tokens 1048576 --context 262144
  --strategies fixed,fixed:recompute=full,fixed:cp=2,fixed:cp=4,balanced,sliced,slimpack --json -)
golden_case(simulate_cp2_stage_layers ARGS simulate --preset long-sft-128k --batch-tokens 524288 --tp 2 --cp 2 --stage-layers 7,8,8,9 --recompute 2 --strategy sliced --json -)
golden_case(bad_recompute EXIT 2 STDERR "--recompute: 'most' is not one of none, selective, full, auto or a layer count" ARGS simulate --recompute most)
golden_case(bad_stage_layers EXIT 2 STDERR "--stage-layers: the layers sum to 31, the model has 32" ARGS simulate --stage-layers 7,8,8,8)
golden_case(context_too_small EXIT 2 STDERR "--context: sample 's[0-9]+' has [0-9]+ tokens, more than the context window of 65536 tokens" ARGS simulate --preset long-sft-128k --context 65536)
golden_case(bad_variant EXIT 2 STDERR "--strategies: strategy variant 'fixed:cq=2': unknown key 'cq'" ARGS compare --strategies fixed:cq=2)

# trace compare: two hand-written steps with known deltas (tests/core/trace/trace_compare_test.cpp)
golden_case(trace_compare ARGS trace compare samples/traces/step_before.json samples/traces/step_after.json --json -)
golden_case(trace_compare_kernels ARGS trace compare samples/traces/step_before.json samples/traces/step_after.json --category kernel --fold-digits --json -)
golden_case(trace_compare_one_file EXIT 2 STDERR "expected two trace files" ARGS trace compare samples/traces/step_before.json)
golden_case(trace_compare_missing EXIT 2 STDERR "nope.json" ARGS trace compare samples/traces/step_before.json nope.json)
golden_case(trace_unknown_subcommand EXIT 2 STDERR "unknown subcommand 'diff'" ARGS trace diff a b)
# trace compare per step (means over each file's steps), HTA-style short names and self time; an
# unknown or absent category is an error listing the categories of each file
golden_case(trace_compare_steps ARGS trace compare samples/traces/ddp/rank0.pt.trace.json samples/traces/ddp/rank1.pt.trace.json --steps all --short-names --self --json -)
golden_case(trace_compare_step_one STDOUT "per step, mean over 1 step \\(#2\\)" ARGS trace compare samples/traces/ddp/rank0.pt.trace.json samples/traces/ddp/rank1.pt.trace.json --steps 2)
golden_case(trace_compare_missing_step EXIT 2 STDERR "step_before.json: no ProfilerStep#3 \\(its steps: 1\\)"
  ARGS trace compare samples/traces/step_before.json samples/traces/step_after.json --steps 3)
golden_case(trace_compare_bad_steps EXIT 2 STDERR "--steps '2-1': the range ends before it starts"
  ARGS trace compare samples/traces/step_before.json samples/traces/step_after.json --steps 2-1)
golden_case(trace_compare_unknown_category EXIT 2 STDERR "--category Kernel: no complete event of this category in A nor B \\(categories of A, samples/traces/step_before.json: cpu_op, kernel, python_function, user_annotation; of B, .*\\)"
  ARGS trace compare samples/traces/step_before.json samples/traces/step_after.json --category Kernel)
golden_case(trace_compare_absent_category EXIT 2 STDERR "--category gpu_memcpy: no complete event of this category in A \\(categories of A, .*kineto_small.json: .*gpu_memcpy"
  ARGS trace compare samples/traces/step_before.json samples/traces/kineto_small.json --category gpu_memcpy)
# trace summary: the two-rank sample run (figures worked out in tests/core/app/trace_summary_report_test.cpp)
golden_case(trace_summary_ddp ARGS trace summary samples/traces/ddp --json -)
# One rank after the other: the same figures as on every core.
golden_case(trace_summary_ddp_serial ARGS trace summary samples/traces/ddp --threads 1 --json -)
golden_case(trace_summary_kineto ARGS trace summary samples/traces/kineto_small.json.gz --json -)
# Launches found without ac2g flows: by older Kineto's async_cpu_to_gpu flows, or by
# args.correlation alone (figures in tests/core/trace/trace_launches_test.cpp): the same figures.
golden_case(trace_summary_async_flows ARGS trace summary tests/cli/inputs/launch-async-flows.trace.json --json -)
golden_case(trace_summary_correlation ARGS trace summary tests/cli/inputs/launch-correlation.trace.json --json -)
golden_case(trace_summary_correlation_text STDOUT "launches: 4 found \\(4 by correlation id\\)"
  ARGS trace summary tests/cli/inputs/launch-correlation.trace.json)
# The kernel launched in step 1 that runs in step 2 is step 1's: 4 gemms in step 1 on both sides.
# A run of several ranks per side (a folder or FILE,FILE): its ranks merged by core/app's
# compare_runs, as the explorer's diff table merges run A and run B (tests/core/app/run_compare_test.cpp).
golden_case(trace_compare_ranks ARGS trace compare samples/traces/ddp samples/traces/ddp/rank1.pt.trace.json --steps all --json -)
golden_case(trace_compare_steps_by_launch ARGS trace compare tests/cli/inputs/launch-async-flows.trace.json tests/cli/inputs/launch-correlation.trace.json --steps 1 --category kernel --json -)
golden_case(trace_summary_text STDOUT "#1 +200.000 +140.000 +110.000 +20.000 +10.000 +60.000 +40.000 +55.000 +5.000 +0.000"
  ARGS trace summary samples/traces/ddp/rank0.pt.trace.json)
# HTA's window (first GPU operation start to last end) for the total, so idle is HTA's idle_time
# (tests/traces/test_hta.py), and the kernel tables (tests/core/trace/trace_kernel_table_test.cpp).
golden_case(trace_summary_hta_window ARGS trace summary samples/traces/kineto_small.json --idle-window gpu --json -)
# Memory over time and counters: the trace of tests/core/trace/trace_memory_test.cpp (figures worked
# out there), one "[memory]" event without a numeric Total Allocated among them.
golden_case(trace_summary_memory ARGS trace summary tests/cli/inputs/memory.trace.json --json -)
golden_case(trace_summary_memory_text STDOUT "#1 +cuda:0 +3 +1000 +4000 +8000 +50.000 +4000000"
  ARGS trace summary tests/cli/inputs/memory.trace.json)
golden_case(trace_summary_memory_skipped STDOUT "warning: 1 \\[memory\\] event skipped: no numeric Total Allocated or no ts"
  ARGS trace summary tests/cli/inputs/memory.trace.json)
golden_case(trace_summary_kernels_text STDOUT "communication +1 +420.250 +420.250 +420.250 +420.250 +75.6%  ncclDevKernel_AllReduce"
  ARGS trace summary samples/traces/kineto_small.json --kernels 1)
golden_case(trace_summary_bad_idle_window EXIT 2 STDERR "--idle-window: expected trace or gpu, not 'steps'"
  ARGS trace summary samples/traces/kineto_small.json --idle-window steps)
golden_case(trace_summary_no_gpu EXIT 2 STDERR "worker-a.pt.trace.json: no GPU operation \\(no complete event of category kernel, gpu_memcpy or gpu_memset\\): the GPU time cannot be split"
  ARGS trace summary samples/runs/calibrate/worker-a.pt.trace.json)
golden_case(trace_summary_no_file EXIT 2 STDERR "no trace file given" ARGS trace summary)
golden_case(trace_summary_missing EXIT 2 STDERR "nope.json" ARGS trace summary nope.json)
# One bad file among several: the others are summarised and printed, then its error (exit 2).
golden_case(trace_summary_one_bad_of_two EXIT 2 STDERR "slimpack trace summary: nope.json: cannot open"
  STDOUT "^rank 0  samples/traces/ddp/rank0.pt.trace.json  \\(8 GPU operations\\)"
  ARGS trace summary samples/traces/ddp/rank0.pt.trace.json nope.json)

# measured against simulated: the plan's own export is the "measurement", so every error is zero
golden_case(simulate_check_trace_round_trip ARGS simulate --plan samples/plans/asymmetric-example.json --check-trace samples/traces/asymmetric-example.trace.json --json -)
golden_case(simulate_check_trace_wrong_rules EXIT 2 STDERR "step_before.json: no event matches the rules of 'megatron'"
  ARGS simulate --plan samples/plans/asymmetric-example.json --check-trace samples/traces/step_before.json --trace-rules megatron)
golden_case(simulate_check_trace_bad_rules EXIT 2 STDERR "--trace-rules: .*nope.json"
  ARGS simulate --plan samples/plans/asymmetric-example.json --check-trace samples/traces/step_before.json --trace-rules nope.json)
# Several rank files (comma-separated): one file per rank, given once; the clock options checked.
set(run_plan tests/cli/inputs/calibrate-plan.json)
# samples/runs/calibrate: the calibrate round trip as one Kineto-style file per rank
# (distributedInfo, user_annotation ranges, "wait RECV_F3" ranges between units) beside its plan,
# given as a folder: every unit matches with error 0, and the fit gives the single-file round
# trip's coefficients.
set(run_dir samples/runs/calibrate)
golden_case(simulate_check_trace_rank_folder ARGS simulate --plan ${run_dir}/plan.json --check-trace ${run_dir} --json -)
golden_case(fit_costs_trace_rank_files ARGS fit-costs --trace ${run_dir}/worker-b.pt.trace.json,${run_dir}/worker-a.pt.trace.json --plan ${run_dir}/plan.json --out -)
# A schedule file as the plan: its setup fixes the cost model the units are inverted through (the
# tiny model's coefficients come back from our export of it); an option contradicting it is refused.
golden_case(fit_costs_trace_schedule ARGS fit-costs --trace tests/cli/inputs/tiny-p4.trace.json --plan samples/schedules/tiny-p4.schedule.json --out -)
# The review of core/app's calibrate_run, as the explorer's Calibrate from Trace runs it: a run four
# times faster than its plan is priced would put the plan above 100 % MFU, so the profile is
# refused (nothing written) unless --force asks for it; a run ten times slower is the plan's units
# at another scale, which is what a calibration fits.
golden_case(fit_costs_trace_refused EXIT 2 STDERR "calibration refused: with it the plan would run at an MFU of 122.2 %, above what the GPUs can do: .*refused-profile.json was not written \\(--force writes it\\)"
  ARGS fit-costs --trace tests/cli/inputs/calibrate-4x-faster.trace.json --plan tests/cli/inputs/calibrate-plan.json --out ${golden_out}/refused-profile.json)
golden_case(fit_costs_trace_refused_forced ARGS fit-costs --trace tests/cli/inputs/calibrate-4x-faster.trace.json --plan tests/cli/inputs/calibrate-plan.json --force --out -)
golden_case(fit_costs_trace_other_scale ARGS fit-costs --trace tests/cli/inputs/calibrate-10x-slower.trace.json --plan tests/cli/inputs/calibrate-plan.json --out -)
golden_case(fit_costs_trace_schedule_contradicted EXIT 2 STDERR "--tp 4 contradicts the schedule's setup"
  ARGS fit-costs --trace tests/cli/inputs/tiny-p4.trace.json --plan samples/schedules/tiny-p4.schedule.json --tp 4)
set(rank0 tests/cli/bad/runs/only-waits.json)
golden_case(simulate_check_trace_file_twice EXIT 2 STDERR "only-waits.json: given twice: one file per rank"
  ARGS simulate --plan ${run_plan} --check-trace ${rank0},${rank0})
golden_case(simulate_check_trace_rank_twice EXIT 2 STDERR "inputs/rank0.json: rank 0 \\(from its file name\\) is also the rank of tests/cli/bad/runs/only-waits.json: one file per rank"
  ARGS simulate --plan ${run_plan} --check-trace ${rank0},tests/cli/inputs/rank0.json)
golden_case(simulate_check_trace_option_twice EXIT 2 STDERR "option --check-trace is given twice \\(give it once; lists are comma-separated\\)"
  ARGS simulate --plan ${run_plan} --check-trace ${rank0} --check-trace ${rank0})
golden_case(simulate_check_trace_offsets_count EXIT 2 STDERR "--trace-offsets: 1 offsets for 2 trace files"
  ARGS simulate --plan samples/plans/asymmetric-example.json --check-trace samples/traces/step_before.json,samples/traces/step_after.json --trace-offsets 5)
golden_case(simulate_check_trace_bad_offsets EXIT 2 STDERR "--trace-offsets: 'x' is not a number of microseconds"
  ARGS simulate --plan samples/plans/asymmetric-example.json --check-trace samples/traces/step_before.json --trace-offsets 1,x)
golden_case(simulate_check_trace_align_missing EXIT 2 STDERR "step_before.json: no event named 'ProfilerStep#9' to align the ranks at \\(--trace-align\\)"
  ARGS simulate --plan samples/plans/asymmetric-example.json --check-trace samples/traces/step_before.json --trace-align "ProfilerStep#9")
golden_case(simulate_trace_options_need_files EXIT 2 STDERR "the --trace-\\* options need --check-trace FILE\\[,FILE...\\]"
  ARGS simulate --plan samples/plans/asymmetric-example.json --trace-gpu-time flows)
golden_case(simulate_check_trace_bad_gpu_time EXIT 2 STDERR "--trace-gpu-time: unknown GPU time 'gpu' \\(known: cpu, flows\\)"
  ARGS simulate --plan samples/plans/asymmetric-example.json --check-trace samples/traces/step_before.json --trace-gpu-time gpu)

# Executable schedules (docs/file-formats-schedule.md): written from a plan, read back with the
# setup fixed by the file, flags that contradict it refused, what the format cannot express named.
golden_case(schedule_of_explicit_plan ARGS simulate --plan samples/plans/asymmetric-example.json --schedule-out -)
golden_case(simulate_schedule_explicit ARGS simulate --plan samples/schedules/asymmetric-example.schedule.json --json -)
golden_case(simulate_schedule_priced ARGS simulate --plan samples/schedules/chat-sft-p2.schedule.json --json -)
golden_case(schedule_same_flag_accepted ARGS simulate --plan samples/schedules/chat-sft-p2.schedule.json --tp 8 --pp 2 --json -)
golden_case(schedule_contradicting_flag EXIT 2 STDERR "--tp 4 contradicts the schedule's setup \\(8\\)"
  ARGS simulate --plan samples/schedules/chat-sft-p2.schedule.json --tp 4)
golden_case(schedule_contradicting_costs EXIT 2 STDERR "--costs .*contradicts the schedule's setup"
  ARGS simulate --plan samples/schedules/chat-sft-p2.schedule.json --costs samples/costs/h100-llama-3-8b.profile.json)
golden_case(schedule_refuses_interleaved EXIT 2 STDERR "--schedule-out: the schedule format cannot express interleaved schedules"
  ARGS solve --preset chat-sft --batch-tokens 65536 --pp 2 --strategy fixed --schedule interleaved --schedule-out -)

# search: a small space on two batches (the result has no timing, so it is golden as it is)
golden_case(search_small ARGS search --preset long-sft-128k --batch-tokens 262144 --gpus 8 --tp 4,8 --cp 1,2 --recompute selective,auto --batches 2 --threads 1 --json -)
golden_case(search_no_gpus EXIT 2 STDERR "--gpus: give the GPU budget" ARGS search --preset chat-sft)
golden_case(search_bad_tp EXIT 2 STDERR "--tp: 3 does not divide the model's 32 heads" ARGS search --gpus 8 --tp 3)
golden_case(search_bad_shard EXIT 2 STDERR "--shard: K/N needs 0 <= K < N, got '4/4'" ARGS search --gpus 8 --shard 4/4 --shard-dir shards)
golden_case(search_whole_file_batches EXIT 2 STDERR "--batches: a length file without a batch size is one batch" ARGS search --gpus 8 --lengths samples/lengths/chat_sft_lengths.csv --batches 4)
golden_case(search_merge_missing EXIT 2 STDERR "does-not-exist.jsonl" ARGS search merge does-not-exist.jsonl)

# An unterminated event array (a profiler that stopped while writing): the events before the cut.
golden_case(trace_info_unterminated ARGS trace info tests/cli/inputs/unterminated.trace.json --json -)

# A command-line option against a --costs file that sets the same thing (docs/cost-model.md,
# "Options against a --costs file"): the option wins and stderr says so once, in one line; a
# contradiction is refused. `--tp 2` used to run with the file's parallel.tp = 1 without a word.
set(tiny --lengths samples/lengths/tiny_batch.json --costs samples/models/tiny-8x256.json)
set(tiny_note "^slimpack: --tp 2 overrides parallel.tp = 1 of samples/models/tiny-8x256.json")
golden_case(costs_tp_given_solve STDERR "${tiny_note}" STDOUT "."
  ARGS solve ${tiny} --pp 2 --tp 2 --strategy sliced --out -)
golden_case(costs_tp_given_simulate STDERR "${tiny_note}" STDOUT "\"tp\": 2,"
  ARGS simulate ${tiny} --pp 2 --tp 2 --strategy sliced --json -)
golden_case(costs_tp_given_compare STDERR "${tiny_note}" STDOUT "\"tp\": 2"
  ARGS compare ${tiny} --pp 2 --tp 2 --strategies sliced,fixed --json -)
golden_case(costs_tp_swept STDERR "^slimpack: --tp 1,2 overrides parallel.tp = 1 of samples/models/tiny-8x256.json" STDOUT "."
  ARGS sweep ${tiny} --pp 2 --tp 1,2 --strategy sliced --json -)
golden_case(costs_tp_searched STDERR "^slimpack: --tp 1,2 overrides parallel.tp = 1 of samples/models/tiny-8x256.json" STDOUT "^[0-9]+"
  ARGS search ${tiny} --gpus 4 --pp 2 --tp 1,2 --cp 1 --dp 1 --count)
golden_case(costs_tp_same_value_silent STDERR "^$" STDOUT "\"tp\": 1,"
  ARGS simulate ${tiny} --pp 2 --tp 1 --strategy sliced --json -)
golden_case(costs_model_contradicted EXIT 2
  STDERR "--model llama-3-8b contradicts model = tiny-8x256 of samples/models/tiny-8x256.json: the file describes its own model"
  ARGS simulate ${tiny} --pp 2 --model llama-3-8b)
golden_case(plan_pp_contradicted EXIT 2
  STDERR "--pp 3 contradicts the plan samples/plans/analytic-1f1b.json \\(4\\): a plan file fixes its stages, replicas and schedule"
  ARGS simulate --plan samples/plans/analytic-1f1b.json --pp 3)
# --stage-layers auto splits 8 layers on 3 stages (it refused p = 3 while 3,3,2 ran): the LM head
# on the last stage makes it 3,3,2.
golden_case(costs_auto_split_uneven STDOUT "\"stage_layers\": \\[[^0-9]*3,[^0-9]*3,[^0-9]*2[^0-9]*\\]"
  ARGS compare ${tiny} --tp 1 --pp 3 --stage-layers auto --strategies sliced --json -)

# slimpack export torch-pp: PyTorch's pipeline schedule CSV (docs/user-guide.md, "Exporting a plan
# for PyTorch's pipeline runtime"). The JSON holds the rows; the CSV itself goes to stdout.
set(tiny_fixed samples/schedules/tiny-p2-fixed.schedule.json)
golden_case(export_torch_pp_fixed ARGS export torch-pp ${tiny_fixed} --out /dev/null --json -)
golden_case(export_torch_pp_balanced
  ARGS export torch-pp samples/schedules/tiny-p2-balanced.schedule.json --out /dev/null --json -)
golden_case(export_torch_pp_csv STDOUT "^0F0,0F1,0B0,0B1\n1F0,1B0,1F1,1B1\n$"
  ARGS export torch-pp ${tiny_fixed} --out -)
golden_case(export_torch_pp_compute_comms
  STDOUT "^0UNSHARD,0F0,0SEND_F0,0F1,0SEND_F1,0RECV_B0,0B0,0WAIT_SEND_F0,0RECV_B1,0B1,0WAIT_SEND_F1,0REDUCE_GRAD,0WAIT_REDUCE_GRAD,0RESHARD\n1UNSHARD,1RECV_F0,1F0,1RECV_F1,1B0,1SEND_B0,1F1,1B1,1SEND_B1,1REDUCE_GRAD,1WAIT_REDUCE_GRAD,1RESHARD,1WAIT_SEND_B0,1WAIT_SEND_B1\n$"
  ARGS export torch-pp ${tiny_fixed} --out - --format compute_comms)
# A hand-made plan with explicit times exports (its padding is not priced: the JSON's
# padding.not_priced, tests/core/app/torch_pp_export_test.cpp).
golden_case(export_torch_pp_explicit_times STDOUT "^0F0,0F1,0F2,0F3,0B0,"
  ARGS export torch-pp samples/plans/analytic-1f1b.json --out -)
# What torch cannot run: exit 2, the first reason and the nearest plan that exports.
golden_case(export_torch_pp_asymmetric EXIT 2
  STDERR "^slimpack export: samples/schedules/asymmetric-example.schedule.json: torch's pipeline runtime cannot run this plan: backward pack 3 regroups forward packs 2 and 3; solve it with --strategy balanced or --strategy fixed"
  ARGS export torch-pp samples/schedules/asymmetric-example.schedule.json --out /dev/null)
golden_case(export_torch_pp_drain EXIT 2
  STDERR "tiny-p4.schedule.json: torch's pipeline runtime cannot run this plan: 9 forward and 7 backward packs"
  ARGS export torch-pp samples/schedules/tiny-p4.schedule.json --out /dev/null)
golden_case(export_torch_pp_interleaved EXIT 2
  STDERR "cannot run this plan: schedule \"interleaved\" \\(one stage per rank: the 1f1b and gpipe orders export\\); solve it with --schedule 1f1b"
  ARGS export torch-pp tests/cli/inputs/interleaved-plan.json --out /dev/null)
golden_case(export_torch_pp_no_out EXIT 2 STDERR "--out FILE.csv is required" ARGS export torch-pp ${tiny_fixed})
golden_case(export_torch_pp_bad_format EXIT 2 STDERR "--format: expected compute_only or compute_comms, got 'csv'"
  ARGS export torch-pp ${tiny_fixed} --out /dev/null --format csv)
golden_case(export_unknown_target EXIT 2 STDERR "unknown export target 'megatron' \\(known: torch-pp\\)"
  ARGS export megatron ${tiny_fixed})

# A run of PyTorch's pipeline runtime read with --trace-rules torch-pp (docs/file-formats-traces.md):
# every unit matched, from our layout and torchtitan's (the highest iteration folder).
golden_case(check_trace_torch_pp ARGS simulate --plan samples/runs/torch-pp/schedule.json
  --check-trace samples/runs/torch-pp --trace-rules torch-pp --json -)
golden_case(check_trace_torch_pp_torchtitan ARGS simulate --plan ${tiny_fixed}
  --check-trace tests/cli/inputs/torchtitan-run --trace-rules torch-pp --json -)
golden_case(check_trace_torch_pp_other_rules EXIT 2
  STDERR "no event matches the rules of 'slimpack' .* \\(the run holds samples/runs/torch-pp/torch-pp.csv, PyTorch's pipeline schedule: --trace-rules torch-pp\\)"
  ARGS simulate --plan samples/runs/torch-pp/schedule.json --check-trace samples/runs/torch-pp)
golden_case(check_trace_torch_pp_old_syntax EXIT 2
  STDERR "torch-pp-old-syntax/torch-pp.csv: row 1 \\(rank 0\\), cell 3: '0BW0' is not an action of PyTorch's pipeline action syntax"
  ARGS simulate --plan ${tiny_fixed} --check-trace tests/cli/inputs/torch-pp-old-syntax --trace-rules torch-pp)
golden_case(check_trace_torch_pp_missing_rank EXIT 2
  STDERR "torch-pp-missing-rank/torch-pp.csv: rank 1 \\(stage 1, replica 0\\) has no trace among the run's 1 files: the run's ranks do not match it"
  ARGS simulate --plan ${tiny_fixed} --check-trace tests/cli/inputs/torch-pp-missing-rank --trace-rules torch-pp)
golden_case(check_trace_torch_pp_range_no_unit EXIT 2
  STDERR "torch-pp-extra-range/rank0.json.gz: traceEvents\\[146\\]: PP:0F7 names micro-batch 7, and the plan has 2 packs per replica \\(micro-batches 0-1\\): it names no unit of the plan"
  ARGS simulate --plan ${tiny_fixed} --check-trace tests/cli/inputs/torch-pp-extra-range --trace-rules torch-pp)
golden_case(check_trace_torch_pp_other_plan EXIT 2
  STDERR "samples/runs/torch-pp/torch-pp.csv: 2 pipeline ranks \\(rows\\), and the plan has 4 stages: not a run of this plan"
  ARGS simulate --plan samples/schedules/asymmetric-example.schedule.json --check-trace samples/runs/torch-pp --trace-rules torch-pp)
# A Hugging Face config.json as the model (--hf-config; docs/user-guide.md, "Your own model"): read
# into the cost model as a preset is, on every command that takes a model. Meta-Llama-3-8B's
# published config is the built-in llama-3-8b field for field, so it solves to the same plan and
# calibrates to the same coefficients (the cases share one golden file).
set(hf samples/hf)
set(hf_run --preset chat-sft --batch-tokens 262144 --pp 4)
golden_case(hf_llama3_preset_solve GOLDEN hf_llama3_solve ARGS solve ${hf_run} --model llama-3-8b --out -)
golden_case(hf_llama3_config_solve GOLDEN hf_llama3_solve ARGS solve ${hf_run} --hf-config ${hf}/Meta-Llama-3-8B/config.json --out -)
golden_case(hf_llama3_fit_costs_trace GOLDEN fit_costs_trace_round_trip
  ARGS fit-costs --trace tests/cli/inputs/calibrate.trace.json --plan tests/cli/inputs/calibrate-plan.json --hf-config ${hf}/Meta-Llama-3-8B/config.json --out -)
set(hf_tiny --preset chat-sft --batch-tokens 65536 --pp 2 --tp 2)
golden_case(hf_llama_tiny_simulate ARGS simulate ${hf_tiny} --hf-config ${hf}/llama-tiny.json --json -)
# Tied embeddings and q/k/v biases (qwen2); the schedule's setup.model records the file.
golden_case(hf_qwen2_tiny_schedule ARGS solve ${hf_tiny} --strategy sliced --hf-config ${hf}/qwen2-tiny.json --schedule-out -)
# A head dimension that is not hidden_size / num_attention_heads, and Llama's attention_bias.
golden_case(hf_wide_heads_compare ARGS compare ${hf_tiny} --hf-config ${hf}/llama-wide-heads.json --strategies sliced,slimpack --json -)
golden_case(hf_mistral_sweep ARGS sweep --preset chat-sft --batch-tokens 65536 --pp 2 --hf-config ${hf}/mistral-tiny.json --strategy sliced --tp 1,2,4 --json -)
golden_case(hf_search_count STDOUT "^[0-9]+" ARGS search --hf-config ${hf}/llama-tiny.json --gpus 4 --count)
# Refusals: one model, and a --costs file cannot describe another one or refine it.
golden_case(hf_with_model EXIT 2 STDERR "--hf-config and --model are exclusive: give one model"
  ARGS solve ${hf_tiny} --hf-config ${hf}/llama-tiny.json --model llama-3-8b)
golden_case(hf_missing_file EXIT 2 STDERR "no-such-config.json"
  ARGS simulate ${hf_tiny} --hf-config ${hf}/no-such-config.json)
golden_case(hf_costs_contradicted EXIT 2
  STDERR "--hf-config samples/hf/llama-tiny.json contradicts model = tiny-8x256 of samples/models/tiny-8x256.json: the file describes its own model"
  ARGS simulate ${hf_tiny} --hf-config ${hf}/llama-tiny.json --costs samples/models/tiny-8x256.json)
golden_case(hf_costs_fields_replaced
  STDERR "^slimpack: --hf-config samples/hf/llama-tiny.json overrides model.layers = 16 of tests/cli/inputs/model-layers-16.json\n$"
  STDOUT "\"model\": \"llama-tiny\""
  ARGS simulate ${hf_tiny} --hf-config ${hf}/llama-tiny.json --costs tests/cli/inputs/model-layers-16.json --json -)
golden_case(hf_schedule_contradicted EXIT 2
  STDERR "--hf-config samples/hf/llama-tiny.json contradicts the schedule's setup \\(not set\\)"
  ARGS simulate --plan samples/schedules/chat-sft-p2.schedule.json --hf-config ${hf}/llama-tiny.json)
# A sliding window masks nothing in sequences no longer than it: planned as full attention there,
# refused (naming the file and the field) for a batch with a longer sequence.
set(hf_window tests/cli/inputs/hf-mistral-window.json)
golden_case(hf_window_masks_nothing STDOUT "\"format\": \"slimpack-plan\""
  ARGS solve --lengths samples/lengths/tiny_batch.json --pp 2 --tp 1 --hf-config ${hf_window} --out -)
golden_case(hf_window_shorter_than_batch EXIT 2
  STDERR "hf-mistral-window.json: sliding_window: 4096 is shorter than sequence s[0-9]+ \\([0-9]+ tokens\\): a window masks attention the cost model prices in full"
  ARGS simulate ${hf_tiny} --hf-config ${hf_window})
golden_case(hf_tp_does_not_divide EXIT 2 STDERR "--tp: 3 does not divide model.heads 8"
  ARGS solve --preset chat-sft --batch-tokens 65536 --pp 2 --tp 3 --hf-config ${hf}/llama-tiny.json)
# trace pipeline: where a run's bubbles come from (figures worked out by hand in
# tests/core/sim/pipeline_bubbles_test.cpp). The sample run of our runtime's form (wait RECV
# ranges give the arrivals) against its plan, and our export of a plan against it (its sends do).
golden_case(trace_pipeline_sample_run
  ARGS trace pipeline samples/runs/calibrate --plan samples/runs/calibrate/plan.json --json -)
# --hf-config names the model that prices the plan, as for simulate --plan (its simulated makespan
# is simulate's, 13.2 ms; the plan's own model gives 557 ms).
golden_case(trace_pipeline_hf_config
  ARGS trace pipeline samples/runs/calibrate --plan samples/runs/calibrate/plan.json --hf-config ${hf}/llama-tiny.json --json -)
golden_case(trace_pipeline_export
  ARGS trace pipeline samples/traces/asymmetric-example.trace.json --plan samples/plans/asymmetric-example.json --json -)
# A run of PyTorch's pipeline runtime: each unit's range waits for its message before its first
# operator (core/trace/unit_waits.h), and a run read with other rules says which it needs.
golden_case(trace_pipeline_torch_pp
  ARGS trace pipeline samples/runs/torch-pp --plan samples/runs/torch-pp/schedule.json --trace-rules torch-pp --json -)
golden_case(trace_pipeline_torch_pp_other_rules EXIT 2
  STDERR "no event matches the rules of 'slimpack' .* \\(the run holds samples/runs/torch-pp/torch-pp.csv, PyTorch's pipeline schedule: --trace-rules torch-pp\\)"
  ARGS trace pipeline samples/runs/torch-pp --plan samples/runs/torch-pp/schedule.json)
golden_case(trace_pipeline_text STDOUT "stage 0 B1 waited 30.6 ms \\(from 76.0 ms\\) for stage 1 B1"
  ARGS trace pipeline samples/runs/calibrate --plan samples/runs/calibrate/plan.json)
golden_case(trace_pipeline_other_plan EXIT 2 STDERR "worker-a.pt.trace.json#8 F6: no forward pack F6 on stage 0 of replica 0 in the plan \\(5 packs\\): not a run of this plan"
  ARGS trace pipeline samples/runs/calibrate --plan samples/plans/asymmetric-example.json)
golden_case(trace_pipeline_wrong_rules EXIT 2 STDERR "no event matches the rules of 'megatron'"
  ARGS trace pipeline samples/runs/calibrate --plan samples/runs/calibrate/plan.json --trace-rules megatron)
golden_case(trace_pipeline_no_plan EXIT 2 STDERR "--plan FILE is required"
  ARGS trace pipeline samples/runs/calibrate)
golden_case(trace_pipeline_missing EXIT 2 STDERR "nope: cannot open"
  ARGS trace pipeline samples/runs/nope --plan samples/runs/calibrate/plan.json)

# slimpack dataset: every batch of a length file cut in order, K seeded batches of a preset; the
# worst batch's option; what is not a dataset, refused by its option.
golden_case(dataset_file ARGS dataset --lengths samples/lengths/chat_sft_lengths.csv --batch-tokens 65536 --pp 2 --tp 2 --strategy fixed,slimpack --json -)
golden_case(dataset_preset ARGS dataset --preset chat-sft --batch-tokens 65536 --pp 2 --tp 2 --batches 4 --json -)
golden_case(dataset_text STDOUT "strategy +iteration median / p95 / max.*slimpack: solver p95 is .* of the median iteration: .*worst batch: simulate --batch-index [0-9]"
  ARGS dataset --lengths samples/lengths/chat_sft_lengths.csv --batch-tokens 65536 --pp 2 --tp 2 --strategy fixed,slimpack)
golden_case(dataset_batch_index EXIT 2 STDERR "--batch-index: the dataset is every batch of the file"
  ARGS dataset --lengths samples/lengths/chat_sft_lengths.csv --batch-tokens 65536 --batch-index 1)
golden_case(dataset_too_many_batches EXIT 2 STDERR "--batches: the file has [0-9]+ batches of this size, got 500"
  ARGS dataset --lengths samples/lengths/chat_sft_lengths.csv --batch-tokens 65536 --batches 500)
golden_case(dataset_whole_file_batches EXIT 2 STDERR "--batches: a length file without a batch size is one batch"
  ARGS dataset --lengths samples/lengths/chat_sft_lengths.csv --batches 2)
golden_case(dataset_bad_strategy EXIT 2 STDERR "--strategy: strategy variant 'magic': unknown strategy 'magic'"
  ARGS dataset --preset chat-sft --strategy fixed,magic)
golden_case(dataset_zero_batches EXIT 2 STDERR "--batches: must be at least 1, got 0"
  ARGS dataset --preset chat-sft --batches 0)
golden_case(simulate_batch_index_past EXIT 2 STDERR "--batch-index: the file has [0-9]+ batches of this size \\(0\\.\\.[0-9]+\\), got 99"
  ARGS simulate --lengths samples/lengths/chat_sft_lengths.csv --batch-tokens 65536 --batch-index 99)
golden_case(simulate_batch_index_preset EXIT 2 STDERR "--batch-index: picks a batch of a length file"
  ARGS simulate --preset chat-sft --batch-index 1)
