#!/bin/bash
# cluster.sh: a test cluster on this machine: N "nodes", each a network namespace of its own joined to one
# bridge by a veth pair, with addresses from the benchmarking range 198.18.0.0/15 (RFC 2544) only, and each
# node's link shaped both ways to a given rate. MPI reaches the nodes through tests/tools/fakessh (own
# hostname, own IPC and network namespace), so ranks on different nodes talk over TCP through the veths.
# Needs root (as CI runs).
#
#   cluster.sh up NODES [RATE_MBS [BURST]]  make nodes node0..node{N-1}; RATE_MBS: each link shaped to that
#                                    many MB/s (10^6 bytes/s) both ways by tbf; 0 or none: unshaped. BURST (tc's
#                                    units, e.g. 2mb): the bucket; default what the link carries in 1 ms (at
#                                    least 64kb), so that a ping-pong's idle direction cannot save up a message
#   cluster.sh shape NODE RATE_MBS [BURST]  reshape one node's link (0: unshaped)
#   cluster.sh cut NODE              take one node's link down (a cable pulled)
#   cluster.sh mend NODE             bring it up again
#   cluster.sh down [--force]        remove every namespace, veth and the bridge this script made
#   cluster.sh env                   the launcher's flags and environment, for eval
#
# `up` records what it made in /run/mpilat-cluster (one namespace or link a line), and `down` removes only
# what is listed there: a namespace named mpi_node0 that someone made by hand for fakessh is not ours. The
# record names its owner, the process that called `up` (its id and start time): while that process lives,
# `up` and `down` from any other process are refused (another user's or test's cluster is not torn down;
# `down --force` does it by hand); a record whose owner has ended is stale, and `up` clears it. Each
# namespace has TCP's slow start after idle turned off: a ping-pong idles between messages, and with it on
# every message after a pause starts again from a small window (measured 6x below a shaped rate).
set -euo pipefail
readonly bridge=mlcbr0 prefix=mlc net=198.18.0 host_ip=198.18.0.254 node_if=mlc0 made=/run/mpilat-cluster
here=$(cd "$(dirname "$0")/.." && pwd)

ns_of() { echo "mpi_$1"; }  # fakessh's name for a host's namespace
veth_of() { echo "${prefix}v${1#node}"; }

shape_dev() {  # RATE_MBS BURST DEV [namespace]
  local rate=$1 burst=$2 dev=$3 run=()
  [ -n "${4:-}" ] && run=(ip netns exec "$4")
  "${run[@]}" tc qdisc del dev "$dev" root 2> /dev/null || true
  # tc's "mbps" is megabytes per second (mbit: megabits).
  [ "$rate" = 0 ] || "${run[@]}" tc qdisc add dev "$dev" root tbf rate "${rate}mbps" burst "$burst" latency 100ms
}

shape() {  # NODE RATE_MBS [BURST]: both directions of the node's link
  local burst=${3:-$(( $2 * 1000 > 65536 ? $2 * 1000 : 65536 ))}  # 1 ms of the rate, in bytes
  shape_dev "$2" "$burst" "$(veth_of "$1")"
  shape_dev "$2" "$burst" "$node_if" "$(ns_of "$1")"
}

# The start time of process $1 (field 22 of /proc/<pid>/stat, after the name, which may hold spaces), or "".
start_of() {
  local stat
  stat=$(cat "/proc/$1/stat" 2> /dev/null) || return 0
  stat=${stat##*) }
  # shellcheck disable=SC2086 # the fields, one word each
  set -- $stat
  echo "${20}"
}

# The record's owner while it lives and is not the caller ($PPID): its pid; else nothing.
other_owner() {
  local pid start
  [ -f "$made" ] || return 0
  read -r pid start <<< "$(sed -n 's/^owner //p' "$made")"
  [ -n "$pid" ] && [ "$pid" != "$PPID" ] && [ "$(start_of "$pid")" = "$start" ] && echo "$pid"
  return 0
}

up() {
  local nodes=$1 rate=${2:-0} burst=${3:-}
  [[ $nodes =~ ^[0-9]+$ ]] && [ "$nodes" -ge 1 ] && [ "$nodes" -le 200 ] || { echo "cluster.sh: NODES must be 1..200, got '$nodes'" >&2; exit 2; }
  [[ $rate =~ ^[0-9]+$ ]] || { echo "cluster.sh: RATE_MBS must be a whole number of MB/s, got '$rate'" >&2; exit 2; }
  [ "$(id -u)" = 0 ] || { echo "cluster.sh: needs root (network namespaces)" >&2; exit 77; }
  down  # the caller's own cluster, or a stale record's; another's live one is refused there
  echo "owner $PPID $(start_of "$PPID")" > "$made"
  for ((i = 0; i < nodes; i++)); do
    if ip netns list 2> /dev/null | awk '{print $1}' | grep -qx "$(ns_of "node$i")"; then
      echo "cluster.sh: namespace $(ns_of "node$i") exists and is not this script's: not touched, not made" >&2
      exit 2
    fi
  done
  if ip link show "$bridge" > /dev/null 2>&1; then
    echo "cluster.sh: link $bridge exists and is not this script's: not touched" >&2
    exit 2
  fi
  echo "link $bridge" >> "$made"
  ip link add "$bridge" type bridge
  sysctl -q -w "net.ipv6.conf.$bridge.disable_ipv6=1"  # IPv4 in the benchmarking range only
  ip addr add "$host_ip/24" dev "$bridge"
  ip link set "$bridge" up
  for ((i = 0; i < nodes; i++)); do
    local node=node$i ns veth
    ns=$(ns_of "$node")
    veth=$(veth_of "$node")
    echo "netns $ns" >> "$made"
    ip netns add "$ns"
    echo "link $veth" >> "$made"
    ip link add "$veth" type veth peer name "$node_if" netns "$ns"
    sysctl -q -w "net.ipv6.conf.$veth.disable_ipv6=1"
    ip netns exec "$ns" sysctl -q -w "net.ipv6.conf.all.disable_ipv6=1"
    ip link set "$veth" master "$bridge"
    ip link set "$veth" up
    ip netns exec "$ns" ip addr add "$net.$((i + 1))/24" dev "$node_if"
    ip netns exec "$ns" ip link set "$node_if" up
    ip netns exec "$ns" ip link set lo up
    ip netns exec "$ns" sysctl -q -w net.ipv4.tcp_slow_start_after_idle=0
    shape "$node" "$rate" $burst
  done
}

down() {
  [ -f "$made" ] || return 0
  local kind name other
  other=$(other_owner)
  if [ -n "$other" ] && [ "${1:-}" != --force ]; then
    echo "cluster.sh: the cluster in $made belongs to process $other, still running: not touched" \
         "(cluster.sh down --force removes it)" >&2
    exit 2
  fi
  while read -r kind name; do
    if [ "$kind" = owner ]; then
      continue
    elif [ "$kind" = netns ]; then
      # A rank left in the namespace would keep it: end them first.
      ip netns pids "$name" 2> /dev/null | xargs -r kill -9 2> /dev/null || true
      ip netns del "$name" 2> /dev/null || true
    else
      ip link del "$name" 2> /dev/null || true
    fi
  done < "$made"
  rm -f "$made"
}

case "${1:-}" in
  up) shift; up "$@" ;;
  shape) shape "$2" "$3" ${4:-} ;;
  cut) ip link set "$(veth_of "$2")" down ;;
  mend) ip link set "$(veth_of "$2")" up ;;
  down) down "${2:-}" ;;
  env)
    # For the launcher (MPICH's hydra): ranks reach each other only on the nodes' veths.
    echo "MPILAT_CLUSTER_LAUNCH='-launcher ssh -launcher-exec $here/tests/tools/fakessh -iface $bridge'"
    echo "export FAKESSH_NETNS=1 FAKESSH_IPC=1 UCX_NET_DEVICES=$node_if UCX_TLS=tcp,self,sm"
    ;;
  *) sed -n '2,15p' "$0" >&2; exit 2 ;;
esac
