# tune-check (fixed, vbatched) with the re-tuned file, against the NVIDIA defaults and the generic ones
O=$OUT
TUNE_CHECK_ROUNDS=2 OUT=$O/dev tools/gpu/device_run.sh tune-check tune-check-vbatched > $O/dev.txt 2>&1
UNTUNED_DEFAULTS=generic TUNE_CHECK_ROUNDS=2 OUT=$O/gen tools/gpu/device_run.sh tune-check tune-check-vbatched > $O/gen.txt 2>&1
grep -hE "geometric|nmax=|n=" $O/dev.txt $O/gen.txt | tail -60
