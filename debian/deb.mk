# SPDX-License-Identifier: MIT
# The Debian packages, end to end (included by the top Makefile):
#   make deb-check   build them with dpkg-buildpackage -us -uc in a copy of
#                    the tree, lintian them (no errors), install them, build
#                    the README's example against them with pkg-config and
#                    with CMake (/usr/local hidden: a `make install` copy
#                    there is not what gets tested; debian/deb-use.sh),
#                    build the module through DKMS against Debian's 6.1
#                    cloud headers, remove them. Root; apt-gets what it
#                    needs. About two minutes: not part of `make check`.
.PHONY: deb-check
deb-check:
	sh debian/deb-check.sh
