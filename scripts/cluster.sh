#!/bin/bash
# cluster.sh: a test cluster on this machine: N "nodes", each a network namespace of its own joined to one
# bridge by a veth pair, with addresses from the benchmarking range 198.18.0.0/15 (RFC 2544) only, and each
# node's link shaped both ways to a given rate. MPI reaches the nodes through tests/tools/fakessh (own
# hostname, own IPC and network namespace), so ranks on different nodes talk over TCP through the veths.
# Needs root (as CI runs).
#
#   cluster.sh up NODES [RATE_MBS]   make nodes node0..node{N-1}; RATE_MBS: each link shaped to that many
#                                    MB/s (10^6 bytes/s) both ways, tbf with a 2 MB burst; 0 or none: unshaped
#   cluster.sh shape NODE RATE_MBS   reshape one node's link (0: unshaped)
#   cluster.sh cut NODE              take one node's link down (a cable pulled)
#   cluster.sh down                  remove every namespace, veth and the bridge this script made
#   cluster.sh env                   the launcher's flags and environment, for eval
#
# Every name carries the prefix "mlc" (mpilat cluster) so that `down` removes exactly what `up` made. Each
# namespace has TCP's slow start after idle turned off: a ping-pong idles between messages, and with it on
# every message after a pause starts again from a small window (measured 6x below a shaped rate).
set -euo pipefail
readonly bridge=mlcbr0 prefix=mlc net=198.18.0 host_ip=198.18.0.254 node_if=mlc0
here=$(cd "$(dirname "$0")/.." && pwd)

ns_of() { echo "mpi_$1"; }  # fakessh's name for a host's namespace
veth_of() { echo "${prefix}v${1#node}"; }

shape_dev() {  # RATE_MBS DEV [namespace]
  local rate=$1 dev=$2 run=()
  [ -n "${3:-}" ] && run=(ip netns exec "$3")
  "${run[@]}" tc qdisc del dev "$dev" root 2> /dev/null || true
  # tc's "mbps" is megabytes per second; a 2 MB burst passes a message at the veth's own speed only once,
  # the rate holds over any longer run.
  [ "$rate" = 0 ] || "${run[@]}" tc qdisc add dev "$dev" root tbf rate "${rate}mbps" burst 2mb latency 100ms
}

shape() {  # NODE RATE_MBS: both directions of the node's link
  shape_dev "$2" "$(veth_of "$1")"
  shape_dev "$2" "$node_if" "$(ns_of "$1")"
}

up() {
  local nodes=$1 rate=${2:-0}
  [[ $nodes =~ ^[0-9]+$ ]] && [ "$nodes" -ge 1 ] && [ "$nodes" -le 200 ] || { echo "cluster.sh: NODES must be 1..200, got '$nodes'" >&2; exit 2; }
  [[ $rate =~ ^[0-9]+$ ]] || { echo "cluster.sh: RATE_MBS must be a whole number of MB/s, got '$rate'" >&2; exit 2; }
  [ "$(id -u)" = 0 ] || { echo "cluster.sh: needs root (network namespaces)" >&2; exit 77; }
  down
  ip link add "$bridge" type bridge
  sysctl -q -w "net.ipv6.conf.$bridge.disable_ipv6=1"  # IPv4 in the benchmarking range only
  ip addr add "$host_ip/24" dev "$bridge"
  ip link set "$bridge" up
  for ((i = 0; i < nodes; i++)); do
    local node=node$i ns veth
    ns=$(ns_of "$node")
    veth=$(veth_of "$node")
    ip netns add "$ns"
    ip link add "$veth" type veth peer name "$node_if" netns "$ns"
    sysctl -q -w "net.ipv6.conf.$veth.disable_ipv6=1"
    ip netns exec "$ns" sysctl -q -w "net.ipv6.conf.all.disable_ipv6=1"
    ip link set "$veth" master "$bridge"
    ip link set "$veth" up
    ip netns exec "$ns" ip addr add "$net.$((i + 1))/24" dev "$node_if"
    ip netns exec "$ns" ip link set "$node_if" up
    ip netns exec "$ns" ip link set lo up
    ip netns exec "$ns" sysctl -q -w net.ipv4.tcp_slow_start_after_idle=0
    shape "$node" "$rate"
  done
}

down() {
  local ns
  for ns in $(ip netns list 2> /dev/null | awk '{print $1}' | grep -E '^mpi_node[0-9]+$' || true); do
    # A rank left in the namespace would keep it: end them first.
    ip netns pids "$ns" 2> /dev/null | xargs -r kill -9 2> /dev/null || true
    ip netns del "$ns" 2> /dev/null || true
  done
  for dev in $(ip -o link show 2> /dev/null | awk -F': ' '{print $2}' | sed 's/@.*//' | grep -E "^${prefix}(v[0-9]+|br0)$" || true); do
    ip link del "$dev" 2> /dev/null || true
  done
}

case "${1:-}" in
  up) shift; up "$@" ;;
  shape) shape "$2" "$3" ;;
  cut) ip link set "$(veth_of "$2")" down ;;
  down) down ;;
  env)
    # For the launcher (MPICH's hydra): ranks reach each other only on the nodes' veths.
    echo "MPILAT_CLUSTER_LAUNCH='-launcher ssh -launcher-exec $here/tests/tools/fakessh -iface $bridge'"
    echo "export FAKESSH_NETNS=1 FAKESSH_IPC=1 UCX_NET_DEVICES=$node_if UCX_TLS=tcp,self,sm"
    ;;
  *) sed -n '2,15p' "$0" >&2; exit 2 ;;
esac
