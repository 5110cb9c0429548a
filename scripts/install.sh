#!/usr/bin/env bash
# Installs transect: the launcher and the three command libraries it loads from its own
# directory, the manual page and the bash and zsh completions, the last three made by the
# launcher itself from its option declarations (--generate-manual, --generate-completion-script).
#
#   make install [PREFIX=/usr/local] [DESTDIR=/tmp/stage]
#   scripts/install.sh DESTDIR PREFIX BUILD_DIR
#
# Under DESTDIR/PREFIX:
#   lib/transect/transect and lib/transect/libTransectCLI*.so   (one is no use without the others)
#   bin/transect -> ../lib/transect/transect                   (the launcher follows the link)
#   share/man/man1/transect.1
#   share/bash-completion/completions/transect
#   share/zsh/site-functions/_transect
# DESTDIR stages the tree for a package (the link is relative, so it holds once moved to PREFIX).
# The programs link the Swift runtime of the toolchain that built them.
set -euo pipefail
(($# == 3)) || { echo "Usage: scripts/install.sh DESTDIR PREFIX BUILD_DIR" >&2; exit 2; }
destdir=$1 prefix=$2 build=$3
[[ $prefix == /* ]] || { echo "Error: PREFIX must be an absolute path, not '$prefix'" >&2; exit 2; }
files=(transect libTransectCLI.so libTransectCLIMeasure.so libTransectCLICompare.so)
for f in "${files[@]}"; do
    [[ -f $build/$f ]] || { echo "Error: '$build/$f' is not built (make build)" >&2; exit 2; }
done
root=${destdir%/}$prefix
generated=$(mktemp -d)
trap 'rm -rf "$generated"' EXIT
"$build/transect" --generate-manual > "$generated/transect.1"
"$build/transect" --generate-completion-script bash > "$generated/transect.bash"
"$build/transect" --generate-completion-script zsh > "$generated/_transect"

install -d "$root/lib/transect" "$root/bin" "$root/share/man/man1" "$root/share/bash-completion/completions" \
    "$root/share/zsh/site-functions"
install -m 755 "$build/transect" "$root/lib/transect/transect"
for f in "${files[@]:1}"; do install -m 644 "$build/$f" "$root/lib/transect/$f"; done
ln -sfn ../lib/transect/transect "$root/bin/transect"
install -m 644 "$generated/transect.1" "$root/share/man/man1/transect.1"
install -m 644 "$generated/transect.bash" "$root/share/bash-completion/completions/transect"
install -m 644 "$generated/_transect" "$root/share/zsh/site-functions/_transect"
echo "Installed transect under $root (bin/transect, lib/transect/, share/man/man1/transect.1, bash and zsh completions)"
