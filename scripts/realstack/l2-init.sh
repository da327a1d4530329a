#!/bin/busybox sh
# /init of the L2 initramfs. Parameters come from the kernel command line (rs_*=...):
#   rs_arith=0,1   vCPUs that run arithoh (empty: none)   rs_window=SECONDS   rs_extra=SECONDS
#   rs_settle=SECONDS (pause between boot and the start marker)
/bin/busybox mkdir -p /proc /sys /dev /tmp
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev 2>/dev/null
dmesg -n 1
arith= window=10 extra=3 settle=2
for w in $(cat /proc/cmdline); do
    case $w in
        rs_arith=*) arith=${w#*=} ;;
        rs_window=*) window=${w#*=} ;;
        rs_extra=*) extra=${w#*=} ;;
        rs_settle=*) settle=${w#*=} ;;
    esac
done
echo "RS_L2_BOOTED uptime=$(cut -d' ' -f1 /proc/uptime) cpus=$(grep -c ^processor /proc/cpuinfo) idle=$(cat /sys/devices/system/cpu/cpuidle/current_driver 2>/dev/null)"
sleep "$settle"
echo "RS_L2_START uptime=$(cut -d' ' -f1 /proc/uptime)"
for c in $(echo "$arith" | tr , ' '); do
    taskset -c "$c" /arithoh "$window" "$extra" "vcpu$c" &
done
sleep "$window"
sleep "$extra"
wait
echo "RS_L2_DONE uptime=$(cut -d' ' -f1 /proc/uptime)"
poweroff -f
