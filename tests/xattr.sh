#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# xattr.sh - --xattr=update|audit: digests in extended attributes, in
# cshatag's names and format, on file systems the tests mount themselves
# (tmpfs, an ext4 image, a vfat image), read and written with getfattr
# and setfattr from Debian's attr, carried by cp -a, rsync -X and mv.
. "${TESTS_SRCDIR:-$(dirname "$0")}/lib.sh"

# Every file system a test mounted, unmounted however the file ends
# (then lib.sh's own clean-up).
mounts=$ms_tmp/.mounts
unmount_all() {
	if [ -f "$mounts" ]; then
		sort -r "$mounts" | while read -r d; do umount "$d" 2>/dev/null; done
		rm -f "$mounts"
	fi
}
trap 'unmount_all; chmod -R u+rwx "$ms_tmp" 2>/dev/null; rm -rf "$ms_tmp"' EXIT

# mount_fs KIND DIR: a fresh file system of KIND (tmpfs, ramfs, ext4, vfat) at
# DIR; skips the test with the reason when it cannot be made here.
mount_fs() {
	[ "$(id -u)" = 0 ] || skip_test "mounting needs root"
	mkdir -p "$2"
	case $1 in
	tmpfs|ramfs)
		mount -t "$1" -o size=8m "$1" "$2" 2>/dev/null ||
			skip_test "cannot mount a $1 here" ;;
	ext4|vfat)
		have "mkfs.$1" || skip_test "mkfs.$1 absent"
		truncate -s 4M "$2.img"
		if [ "$1" = ext4 ]; then
			# 1 KiB blocks: one block of attributes beside the inode's
			mkfs.ext4 -q -F -b 1024 -I 256 "$2.img" >/dev/null 2>&1
		else
			mkfs.vfat "$2.img" >/dev/null 2>&1
		fi || skip_test "mkfs.$1 failed"
		mount -o loop "$2.img" "$2" 2>/dev/null ||
			skip_test "cannot mount a loop device here" ;;
	esac
	(cd "$2" && pwd) >> "$mounts"
}

# A file system with user extended attributes: tmpfs (Linux 6.6 and
# later), else ext4.
mount_xattr_fs() {
	mount_fs tmpfs "$1"
	if ! { : > "$1/.probe" && setfattr -n user.probe -v 1 "$1/.probe"; } 2>/dev/null; then
		umount "$1" && sed -i '$d' "$mounts"
		mount_fs ext4 "$1"
	fi
	rm -f "$1/.probe"
}

need_attr() {
	have getfattr && have setfattr || skip_test "getfattr/setfattr (Debian's attr) absent"
}

# attr NAME FILE: the value of NAME, as getfattr prints it (no quotes).
attr() {
	getfattr --only-values -n "$1" "$2" 2>/dev/null
}

# The SHA-256 of FILE in hex.
sha() {
	multisum "$1" | cut -c1-64
}

OLD='2020-01-01 00:00:00.123456789'

test_update_writes_cshatag_attributes() {
	need_attr
	mount_xattr_fs m
	echo hello > m/a
	touch -d "$OLD" m/a
	status_is 0 "update tags" multisum --xattr=update m/a > out 2> err
	has_line out "new m/a" "an untagged file is new"
	is "$(attr user.shatag.sha256 m/a)" "$(sha m/a)" "user.shatag.sha256 is the hex digest"
	# cshatag's "%010d.%09d": the seconds padded, the nanoseconds all nine
	is "$(attr user.shatag.ts m/a)" "$(stat -c %.9Y m/a)" "user.shatag.ts is SECONDS.NANOSECONDS"
	has_line err "0 ok, 0 timechange, 0 outdated, 0 corrupt, 1 new; 1 tagged" "the summary"
	status_is 0 "an audit of the fresh tag" multisum --xattr=audit m/a > out 2> err
	check_not "ok files are not listed" test -s out
	has_line err "1 ok, 0 timechange, 0 outdated, 0 corrupt, 0 new" "ok"
	# -a: one attribute per algorithm, named as --list-algorithms does
	status_is 0 "two algorithms" multisum --xattr=update -a md5,blake2b-256 m/a > /dev/null 2>&1
	is "$(attr user.shatag.md5 m/a)" "$(multisum -a md5 m/a | cut -c1-32)" "user.shatag.md5"
	is "$(attr user.shatag.blake2b-256 m/a)" "$(multisum -a blake2b-256 m/a | cut -c1-64)" "user.shatag.blake2b-256"
	# without -a, an audit reads the digests the tags hold
	multisum --xattr=audit --format=ndjson m/a > out 2> err
	has_line err "1 ok, 0 timechange, 0 outdated, 0 corrupt, 0 new" "an audit without -a checks every tag"
}

# cshatag's table: the time and the digest, each same, different or missing.
test_audit_classes_as_cshatag() {
	need_attr
	mount_xattr_fs m
	for f in ok timechange outdated corrupt; do echo "$f" > "m/$f"; done
	touch -d "$OLD" m/*
	status_is 3 "no -r: a directory is an error" multisum --xattr=update m > /dev/null 2>&1
	multisum -r --xattr=update m > /dev/null 2>&1
	echo new > m/new
	touch -d '2021-01-01' m/timechange
	echo changed > m/outdated
	# older than 2 s, so that an update gives them a time
	touch -d '2022-01-01' m/new m/outdated
	echo CORRUPT > m/corrupt
	touch -d "$OLD" m/corrupt
	before=$(getfattr -d m/corrupt)
	status_is 1 "corrupt: exit 1" multisum -r --xattr=audit m > out 2> err
	has_line out "timechange m/timechange" "time moved, content did not"
	has_line out "outdated m/outdated" "both changed"
	has_line out "corrupt m/corrupt" "content changed, time did not"
	has_line out "new m/new" "no tag"
	lacks out "m/ok" "an ok file is not listed"
	check "the corrupt file named on stderr, with both digests" \
	    grep -q "m/corrupt: corrupt: other content, same modification time; sha256 stored $(echo corrupt | multisum | cut -c1-64), read $(sha m/corrupt); its tag is kept" err
	has_line err "1 ok, 1 timechange, 1 outdated, 1 corrupt, 1 new" "summary"
	# an update retags the others, never the corrupt one
	status_is 1 "an update with a corrupt file fails" multisum -r --xattr=update m > out 2> err
	is "$(getfattr -d m/corrupt)" "$before" "the corrupt file's tag is kept as it was"
	status_is 1 "still corrupt" multisum -r --xattr=audit m > out 2> err
	has_line err "4 ok, 0 timechange, 0 outdated, 1 corrupt, 0 new" \
	    "after the update only the corrupt file is not ok"
	# the user restores it: ok again, exit 0
	echo corrupt > m/corrupt
	touch -d "$OLD" m/corrupt
	status_is 0 "restored" multisum -r --xattr=audit m > out 2> err
}

# -a adds digests to a tag; it never hides those the tag holds: a file
# corrupt by its sha256 is corrupt under -a md5 too, and an update of an
# edited file under -a md5 renews its sha256 as well, so that no stale
# digest is left beside a new time (cshatag would call it corrupt).
test_other_algorithm_keeps_tags_in_step() {
	need_attr
	mount_xattr_fs m
	echo hi > m/c; echo hi > m/e
	touch -d "$OLD" m/c m/e
	multisum --xattr=update m/c m/e > /dev/null 2>&1
	echo HI > m/c
	touch -d "$OLD" m/c
	status_is 1 "-a md5 of a file its sha256 tag calls corrupt" \
	    multisum --xattr=audit -a md5 m/c > out 2> err
	has_line out "corrupt m/c" "corrupt, not new"
	before=$(getfattr -d m/c)
	status_is 1 "nor does -a md5 tag it" multisum --xattr=update -a md5 m/c \
	    > out 2> err
	is "$(getfattr -d m/c)" "$before" "its tag is kept as it was"
	echo edited > m/e
	touch -d '2022-01-01' m/e
	status_is 0 "-a md5 of an edited file" multisum --xattr=update -a md5 m/e \
	    > out 2> err
	has_line out "outdated m/e" "outdated"
	is "$(attr user.shatag.md5 m/e)" "$(multisum -a md5 m/e | cut -c1-32)" \
	    "md5 added"
	is "$(attr user.shatag.sha256 m/e)" "$(sha m/e)" "sha256 renewed with it"
	status_is 0 "then audited without -a" multisum --xattr=audit m/e > out 2> err
	has_line err "1 ok, 0 timechange, 0 outdated, 0 corrupt, 0 new" "ok"
}

# Tags other tools wrote: cshatag 2.x, cshatag 1.0 (a NUL after the
# digest), shatag (Python: a float time of seven decimals).
test_reads_tags_of_cshatag_and_shatag() {
	need_attr
	mount_xattr_fs m
	echo x > m/f
	touch -d "$OLD" m/f
	hex=$(sha m/f)
	setfattr -n user.shatag.sha256 -v "$hex" m/f
	setfattr -n user.shatag.ts -v 1577836800.123456789 m/f
	status_is 0 "cshatag 2.x" multisum --xattr=audit m/f > out 2> err
	has_line err "1 ok, 0 timechange, 0 outdated, 0 corrupt, 0 new" "cshatag's tag is ok"
	setfattr -n user.shatag.sha256 -v "0x$(printf '%s' "$hex" | od -An -tx1 | tr -d ' \n')00" m/f
	status_is 0 "cshatag 1.0's trailing NUL" multisum --xattr=audit m/f > out 2> err
	has_line err "1 ok, 0 timechange, 0 outdated, 0 corrupt, 0 new" "a trailing NUL is allowed"
	setfattr -n user.shatag.ts -v 1577836800.1234568 m/f
	status_is 0 "shatag's float" multisum --xattr=audit m/f > out 2> err
	has_line err "1 ok, 0 timechange, 0 outdated, 0 corrupt, 0 new" "a rounded float time is the same time"
	setfattr -n user.shatag.ts -v garbage m/f
	status_is 0 "a time that is no time" multisum --xattr=audit m/f > out 2> err
	has_line err "multisum: m/f: user.shatag.ts is no time: taken as missing" "said"
	has_line out "timechange m/f" "no time, same digest: timechange, never corrupt"
	setfattr -n user.shatag.ts -v 1577836800.123456789 m/f
	setfattr -n user.shatag.sha256 -v 1234 m/f
	status_is 0 "a digest that is no digest" multisum --xattr=audit m/f > out 2> err
	has_line out "new m/f" "a malformed digest is missing, not different"
}

# cshatag issues 12 and 21: a tag taken on ext4 read back where times
# are kept to 100 ns (SMB) or to the second (the macOS SMB client).
test_time_that_lost_precision() {
	need_attr
	mount_xattr_fs m
	echo x > m/f
	touch -d '2019-06-24 22:25:48.563117837' m/f
	multisum --xattr=update m/f > /dev/null 2>&1
	touch -d '2019-06-24 22:25:48.563117800' m/f
	status_is 0 "100 ns" multisum --xattr=audit m/f > out 2> err
	has_line err "1 ok, 0 timechange, 0 outdated, 0 corrupt, 0 new" "truncated to 100 ns: the same time"
	touch -d '2019-06-24 22:25:48' m/f
	status_is 0 "1 s" multisum --xattr=audit m/f > out 2> err
	has_line err "1 ok, 0 timechange, 0 outdated, 0 corrupt, 0 new" "truncated to the second: the same time"
	# ... so corruption is still found there (issue 12's point)
	echo y > m/f
	touch -d '2019-06-24 22:25:48' m/f
	status_is 1 "corruption behind a coarse time" multisum --xattr=audit m/f > out 2> err
	has_line out "corrupt m/f" "found"
	# a time that moved is not the same, coarse or not
	echo x > m/f
	touch -d '2019-06-24 22:25:49' m/f
	multisum --xattr=audit m/f > out 2> err
	has_line out "timechange m/f" "a second later is another time"
	touch -d '2019-06-24 22:25:48.563117838' m/f
	multisum --xattr=audit m/f > out 2> err
	has_line out "timechange m/f" "full precision: one nanosecond is another time"
}

# The ledger's racy rule: a file modified within 2 s of being read gets
# its digest but no time, so a write in the same tick is never "corrupt".
test_racy_file_gets_no_time() {
	need_attr
	mount_xattr_fs m
	echo first > m/f
	# a minute ahead: inside the racy window however slow the machine
	touch -d "@$(($(date +%s) + 60))" m/f
	multisum --xattr=update m/f > /dev/null 2> err
	check "said in the summary" grep -q "1 without a time: modified within 2 s of being read" err
	is "$(attr user.shatag.sha256 m/f)" "$(sha m/f)" "the digest is stored"
	check_not "no time is stored" getfattr -n user.shatag.ts m/f 2>/dev/null
	# a write in the same tick: same time, other content
	t=$(stat -c %.9Y m/f)
	echo other > m/f
	touch -d "@$t" m/f
	status_is 0 "never corrupt" multisum --xattr=audit m/f > out 2> err
	has_line out "outdated m/f" "no time to vouch: outdated"
	touch -d "$OLD" m/f
	multisum --xattr=update m/f > /dev/null 2>&1
	is "$(attr user.shatag.ts m/f)" "1577836800.123456789" "an old file gets its time"
}

# A file tagged within 2 s of its write (so without a time) reads back
# ok, not "timechange": nothing moved (R7); an update times it once it
# is out of the racy window.
test_racy_tag_reads_back_ok() {
	need_attr
	mount_xattr_fs m
	echo a > m/a
	echo b > m/b
	multisum --xattr=update m/a m/b > /dev/null 2>&1
	status_is 0 "audit right after" multisum --xattr=audit m/a m/b > out 2> err
	check_not "nothing listed" test -s out
	has_line err "2 ok, 0 timechange, 0 outdated, 0 corrupt, 0 new (2 ok without a stored time: tagged within 2 s of a write, timed by the next update)" \
	    "ok, and said why no time"
	touch -d "$OLD" m/a
	status_is 0 "an update out of the window" multisum --xattr=update m/a > out 2> err
	has_line err "1 ok, 0 timechange, 0 outdated, 0 corrupt, 0 new; 1 tagged" "ok, and timed"
	is "$(attr user.shatag.ts m/a)" "1577836800.123456789" "its time stored"
	multisum --xattr=audit m/a > out 2> err
	has_line err "1 ok, 0 timechange, 0 outdated, 0 corrupt, 0 new" "then plainly ok"
}

# cshatag issue 41: a full attribute space is no corruption.
test_full_attribute_space() {
	need_attr
	mount_fs ext4 m
	echo x > m/f
	touch -d "$OLD" m/f
	setfattr -n user.big -v "$(head -c 900 /dev/zero | tr '\0' a)" m/f
	status_is 3 "update fails" multisum --xattr=update m/f > out 2> err
	has_line err "multisum: m/f: not tagged: cannot store user.shatag.sha256: no room for more extended attributes on this file (its attribute space is full)" \
	    "said as what it is"
	check_not "no time stored without its digest" getfattr -n user.shatag.ts m/f 2>/dev/null
	status_is 3 "again" multisum --xattr=update m/f > out 2> err
	has_line out "new m/f" "still new, never corrupt"
	lacks err "corrupt:" "never corrupt"
}

# A file system without user attributes: ramfs (the kernel may lack vfat).
test_no_user_attributes() {
	need_attr
	if grep -qw ramfs /proc/filesystems 2>/dev/null; then
		mount_fs ramfs m
	else
		mount_fs vfat m
	fi
	echo x > m/f
	status_is 3 "update on vfat" multisum --xattr=update m/f > out 2> err
	has_line err "multisum: m/f: cannot read its tag: the file system does not support user extended attributes" \
	    "ENOTSUP said as such"
	check_not "nothing classed" test -s out
	status_is 3 "audit on vfat" multisum --xattr=audit -a sha256 m/f > out 2> err
	has_line err "multisum: m/f: cannot read its tag: the file system does not support user extended attributes" \
	    "with -a too"
}

test_read_only_files() {
	need_attr
	mount_fs ext4 m
	echo x > m/f
	echo y > m/immutable
	touch -d "$OLD" m/f m/immutable
	chmod 644 m/f
	if have setpriv; then
		status_is 3 "not ours to tag" setpriv --reuid=65534 --regid=65534 --clear-groups \
		    "$MULTISUM" --xattr=update m/f > out 2> err
		has_line err "multisum: m/f: not tagged: cannot store user.shatag.ts: permission denied (a read-only or immutable file)" \
		    "EACCES said as such"
	else
		skip_case "setpriv absent"
	fi
	if chattr +i m/immutable 2>/dev/null; then
		status_is 3 "immutable" multisum --xattr=update m/immutable > out 2> err
		has_line err "multisum: m/immutable: not tagged: cannot store user.shatag.ts: permission denied (a read-only or immutable file)" \
		    "EPERM said as such"
		chattr -i m/immutable
	else
		skip_case "chattr +i refused here"
	fi
	multisum --xattr=update m/f > /dev/null 2>&1
	mount -o remount,ro m
	echo z > out
	status_is 3 "read-only file system" multisum --xattr=update m/immutable > out 2> err
	has_line err "multisum: m/immutable: not tagged: cannot store user.shatag.ts: read-only file system" \
	    "EROFS said as such"
	status_is 0 "an audit needs no writing" multisum --xattr=audit m/f > out 2> err
	has_line err "1 ok, 0 timechange, 0 outdated, 0 corrupt, 0 new" "audited"
	mount -o remount,rw m
}

# The point of keeping the digest with the file: copies carry it.
test_tags_travel_with_the_file() {
	need_attr
	mount_xattr_fs m
	mount_fs ext4 e
	mkdir m/src
	echo a > m/src/a
	echo b > m/src/b
	touch -d "$OLD" m/src/*
	multisum -r --xattr=update m/src > /dev/null 2>&1
	cp -a m/src e/cp
	status_is 0 "cp -a" multisum -r --xattr=audit e/cp > out 2> err
	has_line err "2 ok, 0 timechange, 0 outdated, 0 corrupt, 0 new" "cp -a carries the tags"
	if have rsync; then
		rsync -aX m/src/ e/rsync/
		status_is 0 "rsync -X" multisum -r --xattr=audit e/rsync > out 2> err
		has_line err "2 ok, 0 timechange, 0 outdated, 0 corrupt, 0 new" "rsync -X carries the tags"
		rsync -a m/src/ e/plain/
		multisum -r --xattr=audit e/plain > out 2> err
		has_line err "0 ok, 0 timechange, 0 outdated, 0 corrupt, 2 new" "rsync without -X does not"
	else
		skip_case "rsync absent"
	fi
	mv m/src/a e/moved
	status_is 0 "mv across file systems" multisum --xattr=audit e/moved > out 2> err
	has_line err "1 ok, 0 timechange, 0 outdated, 0 corrupt, 0 new" "mv carries the tag"
	# and the copy's corruption is found where it lies
	echo B > e/cp/b
	touch -d "$OLD" e/cp/b
	status_is 1 "a corrupt copy" multisum -r --xattr=audit e/cp > out 2> err
	has_line out "corrupt e/cp/b" "found in the copy"
}

test_usage() {
	usage_error "an unknown --xattr" --xattr=fix f
	usage_error "--xattr and -c" --xattr=audit -c f
	usage_error "--xattr and -o" --xattr=update -o x f
	usage_error "--xattr and --format=gnu" --xattr=audit --format=gnu f
	status_is 1 "standard input has no attributes" multisum --xattr=audit - < /dev/null 2> err
	has_line err "multisum: -: standard input has no extended attributes" "said"
}

# A build without any attribute calls (.ci/run's portable step, or a
# system that has none) refuses --xattr before it starts, saying why.
test_refused_without_the_calls() {
	echo x > f
	status_is 2 "refused" multisum --xattr=update f 2> err
	has_line err "multisum: --xattr: extended attributes are not supported on this system" "said why"
}

if built_with MS_XATTR_MACOS || built_with MS_XATTR_BSD; then
	skip_test "the tests set attributes with Linux's attr tools"
elif ! built_with MS_XATTR_LINUX; then
	run refused_without_the_calls
	finish
fi
run update_writes_cshatag_attributes
run audit_classes_as_cshatag
run other_algorithm_keeps_tags_in_step
run reads_tags_of_cshatag_and_shatag
run time_that_lost_precision
run racy_file_gets_no_time
run racy_tag_reads_back_ok
run full_attribute_space
run no_user_attributes
run read_only_files
run tags_travel_with_the_file
run usage
unmount_all
finish
