#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs the three example programs on platforms/two-hca.xml (ConnectX-4 EDR
# back to back) and checks their key numbers against the figures the
# connectx-4-edr profile is calibrated on (docs/fidelity.md, "Reference
# figures"): a 32-byte SEND half round trip ~0.82 us (Potter, MSc thesis
# RWTH 2018), ib_write_bw 64 KiB ~93.8 Gb/s (perftest GitHub issue 225),
# ib_read_lat ~1.91 us (perftest GitHub issue 131). Each must land within
# 5%.
set -u
b=${top_builddir:-.}/examples
fail=0

# within VALUE LOW HIGH WHAT
within() {
	if awk -v v="$1" -v lo="$2" -v hi="$3" \
		'BEGIN { exit !(v != "" && v >= lo && v <= hi) }'; then
		echo "ok: $4 = $1 (in [$2, $3])"
	else
		echo "FAIL: $4 = '$1', expected in [$2, $3]"
		fail=1
	fi
}

out=$("$b/rc_pingpong" 200 32) || { echo "FAIL: rc_pingpong exited $?"; fail=1; }
echo "$out"
v=$(echo "$out" | sed -n 's/.*: \([0-9.]*\) us half round trip.*/\1/p')
within "$v" 0.78 0.86 "rc_pingpong 32 B half round trip (us)"

out=$("$b/rdma_write_bw" 300 65536) || { echo "FAIL: rdma_write_bw exited $?"; fail=1; }
echo "$out"
v=$(echo "$out" | sed -n 's/.*: \([0-9.]*\) Gb\/s$/\1/p')
within "$v" 89.1 98.5 "rdma_write_bw 64 KiB (Gb/s)"
echo "$out" | grep -q "server checked 65536 bytes" || {
	echo "FAIL: the server did not check the data"; fail=1; }

out=$("$b/rdma_read" 1048576 100) || { echo "FAIL: rdma_read exited $?"; fail=1; }
echo "$out"
v=$(echo "$out" | sed -n 's/.*READ round trip \([0-9.]*\) us$/\1/p')
within "$v" 1.81 2.01 "rdma_read 32 B round trip (us)"

# Through a switch (platforms/star.xml: ideal HCAs, 100 ns switch, 2 m
# cables, 4x EDR at 80 ps a byte), routed by the subnet manager. A half
# round trip in steady state: the receiver's FCP (6 B) and ACK (30 B) go
# out first, then the 58-byte SEND crosses: LRH in (8 B), 10 ns, 100 ns
# of switch latency, 10 ns, and the whole packet.
out=$("$b/rc_pingpong" --fabric "${top_srcdir:-..}/platforms/star.xml" 200 32) ||
	{ echo "FAIL: rc_pingpong through a switch exited $?"; fail=1; }
echo "$out"
v=$(echo "$out" | sed -n 's/.*: \([0-9.]*\) us half round trip.*/\1/p')
half=$(awk 'BEGIN { printf "%.6f", (6 + 30 + 8 + 58) * 80e-6 + 0.120 }')
within "$v" "$(awk -v h="$half" 'BEGIN { print h - 0.002 }')" "$half" \
	"rc_pingpong through a switch (us)"

# The same programs, unchanged, on RoCEv2 (--model roce): back to back
# the bytes still check; through the star's switch (an Ethernet switch of
# the generic-100g profile, 400 ns, the star giving no latency of its own)
# the receiver's 86-byte ACK goes out first, then the SEND's frame (14 +
# 20 + 8 + 12 + 32 + 4 + 4 = 94 bytes, 114 on the wire) crosses: its
# first 54 bytes in (preamble to UDP, what the switch hashes), 10 ns,
# 400 ns, 10 ns, and the whole frame.
out=$("$b/rdma_write_bw" --model roce 300 65536) ||
	{ echo "FAIL: rdma_write_bw under roce exited $?"; fail=1; }
echo "$out"
echo "$out" | grep -q "server checked 65536 bytes" || {
	echo "FAIL: the server did not check the data under roce"; fail=1; }
out=$("$b/rc_pingpong" --fabric "${top_srcdir:-..}/platforms/star.xml" \
	--model roce 200 32) ||
	{ echo "FAIL: rc_pingpong under roce exited $?"; fail=1; }
echo "$out"
v=$(echo "$out" | sed -n 's/.*: \([0-9.]*\) us half round trip.*/\1/p')
half=$(awk 'BEGIN { printf "%.6f", (86 + 54 + 114) * 80e-6 + 0.420 }')
within "$v" "$(awk -v h="$half" 'BEGIN { print h - 0.002 }')" "$half" \
	"rc_pingpong through an Ethernet switch (us)"
err=$("$b/rc_pingpong" --model tcp 2>&1 >/dev/null)
rc=$?
if [ $rc -ne 2 ] || ! echo "$err" | grep -q "not one of ib, roce"; then
	echo "FAIL: --model tcp gave exit $rc: $err"
	fail=1
fi

# Bad input: exit 2 with a FILE:LINE sentence, no crash.
err=$("$b/rc_pingpong" --fabric /nonexistent.xml 2>&1 >/dev/null)
rc=$?
if [ $rc -ne 2 ] || ! echo "$err" | grep -q "nonexistent.xml"; then
	echo "FAIL: a missing fabric file gave exit $rc: $err"
	fail=1
fi
exit $fail
