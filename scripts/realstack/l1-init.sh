#!/bin/busybox sh
# /init of the L1 initramfs: loads kvm + the policy's kvm-hv, starts L2 under QEMU 7.2 (console to
# /tmp/l2.log), counts with tracefs hist triggers over the window that starts when L2 prints
# RS_L2_START, times hcall round trips in a short trace-buffer burst, optionally records a raw
# trace burst (rs_raw, below), and prints everything on hvc0 between RS_BEGIN/RS_END markers for
# the host (scripts/realstack/run.py).
/bin/busybox mkdir -p /proc /sys /dev /tmp
/bin/busybox --install -s /bin 2>/dev/null
export PATH=/bin:/usr/bin:/sbin:/usr/sbin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev 2>/dev/null
mount -t tmpfs tmp /tmp
dmesg -n 1
policy=cancel l2_cpus=2 l2_mem=1024 arith=0 window=10 extra=3 settle=2 burst=0.2 l2_append= raw=0
for w in $(cat /proc/cmdline); do
    case $w in
        rs_policy=*) policy=${w#*=} ;;
        rs_l2_cpus=*) l2_cpus=${w#*=} ;;
        rs_l2_mem=*) l2_mem=${w#*=} ;;
        rs_arith=*) arith=${w#*=} ;;
        rs_window=*) window=${w#*=} ;;
        rs_extra=*) extra=${w#*=} ;;
        rs_settle=*) settle=${w#*=} ;;
        rs_burst=*) burst=${w#*=} ;;
        rs_raw=*) raw=${w#*=} ;;
        rs_l2_append=*) l2_append=$(echo "${w#*=}" | sed 's/%20/ /g') ;;
    esac
done
fail() { echo "RS_FAIL $*"; echo "RS_BEGIN dmesg"; dmesg | tail -40; echo "RS_END"; poweroff -f; }
T=/sys/kernel/tracing
echo "RS_L1_BOOTED uptime=$(cut -d' ' -f1 /proc/uptime)"
echo "RS_KV l1_kernel=$(uname -r) l1_timebase_hz=$(awk '/^timebase/ {print $3; exit}' /proc/cpuinfo) l1_cpus=$(grep -c ^processor /proc/cpuinfo)"
insmod /rs/kvm.ko || fail "insmod kvm.ko"
insmod "/rs/kvm-hv-$policy.ko" || fail "insmod kvm-hv-$policy.ko"
[ -e /dev/kvm ] || fail "no /dev/kvm"
echo "RS_KV kvm_hv_sha256=$(sha256sum "/rs/kvm-hv-$policy.ko" | cut -d" " -f1) kvm_hv_taint=$(cat /sys/module/kvm_hv/taint 2>/dev/null)"
mount -t tracefs nodev $T || fail "mount tracefs"
echo 'p:gsb_recv kvmppc_gsb_recv' >> $T/kprobe_events || fail "kprobe gsb_recv"

# The window: every hist trigger is active from here on (the tracepoints cost the same before and
# during the window). The window's counts are the difference of two snapshots of the hist files
# at its start and end; a hist file prints all triggers of its event at once, so the two triggers
# of one event see the same window.
G=$T/events/kvm_hv/kvm_guest_exit/trigger
H=$T/events/powerpc/hcall_entry/trigger
K=$T/events/kprobes/gsb_recv/trigger
echo "hist:keys=trap.hex:size=256" >> $G &&
echo "hist:keys=vcpu_id,trap.hex:size=1024" >> $G &&
echo "hist:keys=opcode.hex:size=256" >> $H &&
echo "hist:keys=common_pid,opcode.hex:size=1024" >> $H &&
echo "hist:keys=common_pid:size=256" >> $K || fail "hist triggers"
snap() {  # snap start|end (cat reads a file in one go; the shell's read builtin byte by byte)
    cat ${G%trigger}hist > /tmp/snap.$1.kvm_guest_exit
    cat ${H%trigger}hist > /tmp/snap.$1.hcall_entry
    cat ${K%trigger}hist > /tmp/snap.$1.gsb_recv
}

export LD_LIBRARY_PATH=/lib/powerpc64le-linux-gnu:/usr/lib/powerpc64le-linux-gnu
echo "RS_KV l1_qemu=$(qemu-system-ppc64 --version | head -1)"
qemu-system-ppc64 -name l2,debug-threads=on -nodefaults -display none -monitor none -serial file:/tmp/l2.log -no-reboot \
    -machine pseries,accel=kvm,cap-sbbc=broken,cap-cfpc=broken,cap-ibs=broken,cap-ccf-assist=off,cap-large-decr=off,cap-hpt-max-page-size=4096 \
    -cpu host -smp "$l2_cpus" -m "$l2_mem" -kernel /rs/l2-vmlinux -initrd /rs/l2-initrd.cpio \
    -append "console=hvc0 quiet rs_arith=$arith rs_window=$window rs_extra=$extra rs_settle=$settle $l2_append" \
    > /tmp/qemu.out 2>&1 &
qpid=$!
echo "RS_L2_QEMU_STARTED uptime=$(cut -d' ' -f1 /proc/uptime) pid=$qpid"
until grep -q RS_L2_START /tmp/l2.log 2>/dev/null; do
    kill -0 $qpid 2>/dev/null || { cat /tmp/qemu.out /tmp/l2.log; fail "L2 QEMU exited before RS_L2_START"; }
    sleep 0.1
done
read t0 _ < /proc/uptime
snap start
read t0b _ < /proc/uptime
sleep "$window"
read t1a _ < /proc/uptime
snap end
read t1 _ < /proc/uptime
echo "RS_WINDOW l1_start=$t0 l1_started=$t0b l1_ending=$t1a l1_end=$t1"
echo "RS_BEGIN tasks"
for t in /proc/$qpid/task/*; do echo "$(basename $t) $(cat $t/comm)"; done
echo "RS_END"
# Cost burst (the hist triggers keep counting; only the snapshots matter): hcall_entry/exit of
# RUN_VCPU (0x480) and GET_STATE (0x478) into the trace buffer
# with the ppc-tb clock (raw timebase ticks), for $burst seconds.
echo 0 > $T/tracing_on
echo ppc-tb > $T/trace_clock
echo 4096 > $T/buffer_size_kb
echo > $T/trace
for e in hcall_entry hcall_exit; do
    echo 'opcode == 0x480 || opcode == 0x478' > $T/events/powerpc/$e/filter
    echo 1 > $T/events/powerpc/$e/enable
done
echo 1 > $T/tracing_on
sleep "$burst"
echo 0 > $T/tracing_on
for e in hcall_entry hcall_exit; do echo 0 > $T/events/powerpc/$e/enable; done
sed -nE 's/.*-([0-9]+) +\[[0-9]+\].* ([0-9]+): hcall_(entry|exit): opcode=([0-9]+).*/\1 \2 \3 \4/p' $T/trace |
    awk '$3 == "entry" { ts[$1] = $2; op[$1] = $4; next }
         $3 == "exit" && ($1 in ts) && op[$1] == $4 { print $4, $2 - ts[$1]; delete ts[$1] }' > /tmp/lat
echo "RS_BEGIN cost"
echo "trace_lines $(grep -c hcall_ $T/trace) entries_lost $(grep -o 'entries-in-buffer/entries-written: [0-9]*/[0-9]*' $T/trace)"
for op in 1152 1144; do
    awk -v o=$op '$1 == o { print $2 }' /tmp/lat | sort -n > /tmp/lat.$op
    n=$(wc -l < /tmp/lat.$op)
    [ "$n" -gt 0 ] || { echo "opcode=$op n=0"; continue; }
    med=$(sed -n "$(( (n + 1) / 2 ))p" /tmp/lat.$op)
    p10=$(sed -n "$(( (n * 10 + 99) / 100 ))p" /tmp/lat.$op)
    p90=$(sed -n "$(( (n * 90 + 99) / 100 ))p" /tmp/lat.$op)
    awk -v o=$op -v n=$n -v med=$med -v p10=$p10 -v p90=$p90 '{ s += $1 } NR == 1 { mn = $1 } { mx = $1 }
        END { printf "opcode=%s n=%d sum_ticks=%.0f mean_ticks=%.1f median_ticks=%s p10_ticks=%s p90_ticks=%s min_ticks=%s max_ticks=%s\n", o, n, s, s / n, med, p10, p90, mn, mx }' /tmp/lat.$op
done
echo "RS_END"
# Raw trace burst (rs_raw=S, off by default): the five events into the trace buffer of a tracing
# instance of their own (its own buffer, clock and triggers; the top-level ones above are left as
# they are) and, as an independent count of the same events, one hitcount hist trigger on each of
# them in that instance. Both are gated while L2's QEMU is stopped (SIGSTOP, every thread of it
# seen in state T): no L2 vCPU is in KVM_RUN then, so no kvm_guest_enter/exit, gsb_recv or
# H_GUEST_* hcall can fall between the buffer's gate and the triggers' gates, whatever their
# order or how long a :cont takes. Events of other L1 threads (hcalls of L1 itself) could; the
# host counts the trace's lines per event against the hist counts (run.py).
I=$T/instances/rs_raw
RAW_KB=8192
RAW_EVENTS="kvm_hv/kvm_guest_enter kvm_hv/kvm_guest_exit powerpc/hcall_entry powerpc/hcall_exit kprobes/gsb_recv"
raw_keys() {
    case $1 in
        */kvm_guest_enter) echo vcpu_id ;;
        */kvm_guest_exit) echo vcpu_id,trap.hex ;;
        */hcall_entry|*/hcall_exit) echo common_pid,opcode.hex ;;
        */gsb_recv) echo common_pid ;;
    esac
}
raw_trig() {  # raw_trig pause|cont: every raw trigger
    for e in $RAW_EVENTS; do echo "hist:keys=$(raw_keys $e):size=1024:$1" >> $I/events/$e/trigger || return 1; done
}
l2_stop() {  # SIGSTOP L2's QEMU and wait until every thread of it is stopped (at most ~10 s)
    kill -STOP $qpid || return 1
    i=0
    while [ $i -lt 1000 ]; do
        busy=0
        for t in /proc/$qpid/task/*; do
            read -r st < $t/stat || continue
            st=${st##*) }
            case ${st%% *} in T|t) ;; *) busy=1 ;; esac
        done
        [ $busy = 0 ] && return 0
        i=$((i + 1))
        sleep 0.01
    done
    return 1
}
raw_err=
if [ "$raw" != 0 ]; then
    read r0 _ < /proc/uptime
    { mkdir $I && echo 0 > $I/tracing_on && echo ppc-tb > $I/trace_clock &&
      echo $RAW_KB > $I/buffer_size_kb; } || raw_err="instance setup"
    for e in $RAW_EVENTS; do
        [ -z "$raw_err" ] || break
        { echo "hist:keys=$(raw_keys $e):size=1024:pause" >> $I/events/$e/trigger &&
          echo 1 > $I/events/$e/enable; } || raw_err="trigger or enable $e"
    done
    read r1 _ < /proc/uptime
    stop1=1 stop2=1 r2= r3= r4= r5= r6= done_at_end=
    if [ -z "$raw_err" ]; then
        l2_stop || stop1=0
        read r2 _ < /proc/uptime
        echo > $I/trace
        raw_trig cont || raw_err="cont"
        echo 1 > $I/tracing_on
        read r3 _ < /proc/uptime
        kill -CONT $qpid
        sleep "$raw"
        read r4 _ < /proc/uptime
        l2_stop || stop2=0
        read r5 _ < /proc/uptime
        echo 0 > $I/tracing_on
        raw_trig pause || raw_err="pause"
        grep -q RS_L2_DONE /tmp/l2.log && done_at_end=1 || done_at_end=0
        read r6 _ < /proc/uptime
        kill -CONT $qpid
        for e in $RAW_EVENTS; do echo 0 > $I/events/$e/enable; done
    fi
    kill -CONT $qpid 2>/dev/null
fi
# Wait for L2 to finish (its arithoh counts), then report.
n=0
until grep -q RS_L2_DONE /tmp/l2.log 2>/dev/null; do
    kill -0 $qpid 2>/dev/null || break
    n=$((n + 1)); [ $n -gt 600 ] && break
    sleep 0.2
done
for w in start end; do
    for e in kvm_guest_exit hcall_entry gsb_recv; do
        echo "RS_BEGIN hist_${w}_$e"
        cat /tmp/snap.$w.$e
        echo "RS_END"
    done
done
echo "RS_BEGIN l2"
grep -E '^(RS_|ARITHOH)' /tmp/l2.log
echo "RS_END"
echo "RS_BEGIN l2_qemu"
kill -0 $qpid 2>/dev/null && echo "running" || echo "exited"
tail -20 /tmp/qemu.out
grep -v -E '^(RS_|ARITHOH)' /tmp/l2.log | tail -20
echo "RS_END"
echo "RS_BEGIN l1_dmesg_counts"
echo "tlb_inval_failed $(dmesg | grep -c 'invalidation hcall failed')"
echo "vpa_failed $(dmesg | grep -c "couldn't register the L2 VPA")"
echo "RS_END"
if [ "$raw" != 0 ]; then
    # The raw trace as the kernel prints it, and the paused triggers' hist files.
    echo "RS_BEGIN raw_trace_info"
    echo "raw_trace_s $raw"
    echo "buffer_size_kb $(cat $I/buffer_size_kb 2>/dev/null)"
    echo "trace_clock $(cat $I/trace_clock 2>/dev/null)"
    echo "error ${raw_err:-none}"
    echo "l2_stopped_at_open $stop1"
    echo "l2_stopped_at_close $stop2"
    echo "l2_done_at_close $done_at_end"
    echo "l1_uptimes setup=$r0 armed=$r1 stopped=$r2 open=$r3 stopping=$r4 stopped_again=$r5 closed=$r6"
    echo "trace_sha256 $(sha256sum < $I/trace | cut -d' ' -f1)"
    echo "trace_bytes $(wc -c < $I/trace)"
    echo "RS_END"
    echo "RS_BEGIN raw_trace"
    cat $I/trace
    echo "RS_END"
    for e in $RAW_EVENTS; do
        echo "RS_BEGIN raw_hist_${e#*/}"
        cat $I/events/$e/hist
        echo "RS_END"
    done
fi
kill $qpid 2>/dev/null
echo "RS_L1_DONE uptime=$(cut -d' ' -f1 /proc/uptime)"
poweroff -f
