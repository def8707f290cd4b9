#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# archive-links.sh - hard links in --archive, many of them: each link
# gets its own target's digests (the memo of members is a hash table,
# engine_members.c), in hash and check mode, and a name archived twice
# lends its latest content to a link that follows.
. "$TESTS_SRCDIR/lib.sh"

N=400

# N files with distinct contents, each with a hard link; names chosen to
# share prefixes and lengths, so that a wrong lookup shows.
make_tree() {
	mkdir src
	i=0
	while [ $i -lt $N ]; do
		printf 'content %d\n' $i > src/f$i
		ln src/f$i src/l$i
		i=$((i + 1))
	done
}

test_many_links_hash() {
	have tar || skip_test "no tar"
	make_tree
	(cd src && tar cf ../t.tar f* l*) || skip_test "tar failed"
	# the reference: each name hashed by sha256sum from the tree
	(cd src && tar tf ../t.tar | xargs sha256sum) > want
	multisum --archive=t.tar > got
	is "$?" 0 "the archive is hashed"
	same got want "each hard link has its own target's digest"
	is "$(grep -c '  l' got)" "$N" "every link is listed"
}

test_many_links_check() {
	have tar || skip_test "no tar"
	make_tree
	(cd src && tar cf ../t.tar f* l*) || skip_test "tar failed"
	(cd src && sha256sum f* l*) > SUMS
	multisum -c --archive=t.tar SUMS > got
	is "$?" 0 "every member verifies"
	is "$(grep -c ': OK$' got)" "$((2 * N))" "every member is OK"
}

test_latest_member_wins() {
	have tar || skip_test "no tar"
	mkdir src
	printf 'old\n' > src/a
	(cd src && tar cf ../t.tar a) || skip_test "tar failed"
	printf 'new\n' > src/a2
	ln src/a2 src/b
	# a second member "a" (new content), then "b", a hard link to it
	(cd src && rm a && mv a2 a && tar rf ../t.tar a b) || skip_test "tar failed"
	multisum --archive=t.tar b a > got 2> err
	want=$(printf 'new\n' | sha256sum | cut -c1-64)
	has_line got "$want  b" "the link takes the latest member of its target's name"
}

run many_links_hash
run many_links_check
run latest_member_wins
finish
