# SPDX-License-Identifier: BSD-2-Clause
# fish completion for multisum

# The algorithm names, from the program's own --list-algorithms (so the
# list never goes stale and leaves out what this build lacks); "all" is
# added, the NAME-N length rows left out.
function __multisum_algorithms
    set -l prog (commandline -opc)[1]
    command -q -- $prog; or set prog multisum
    command $prog --list-algorithms 2>/dev/null | string match -rv -- '^name |\(no ' |
        string replace -r -- ' .*' '' | string match -rv -- '-N$'
    echo all
end

# -a takes a comma-separated list: complete its last element.
function __multisum_algorithm_list
    set -l tok (string replace -r -- '^(-a|--algorithm=)' '' (commandline -ct))
    set -l head (string replace -r -- '[^,]*$' '' "$tok")
    for a in (__multisum_algorithms)
        echo "$head$a"
    end
end

complete -c multisum -s a -l algorithm -x -a '(__multisum_algorithm_list)' -d 'Algorithms to compute'
complete -c multisum -s l -l length -x -d 'Digest length in bits'
complete -c multisum -l list-algorithms -d 'List the algorithms of this build'
complete -c multisum -l key-file -r -F -d 'BLAKE3 keyed mode, 32-byte key from FILE'
complete -c multisum -l keyed -d 'BLAKE3 keyed mode, key from standard input'
complete -c multisum -l derive-key -x -d 'BLAKE3 key derivation mode with CONTEXT'
complete -c multisum -s b -l binary -d 'Mark names with * in GNU format'
complete -c multisum -s t -l text -d 'Mark names with a space'
complete -c multisum -l tag -d 'BSD-style lines'
complete -c multisum -l untagged -d 'GNU lines, one algorithm'
complete -c multisum -l format -x -a 'gnu bsd sfv ndjson hashdeep magnet table csv json' -d 'Line format'
complete -c multisum -l base64 -d 'Digests in base64'
complete -c multisum -l raw -d 'Bare binary digest of one input'
complete -c multisum -s z -l zero -d 'End lines with NUL'
complete -c multisum -s o -l output -r -d 'Write the manifest atomically to FILE'
complete -c multisum -s c -l check -d 'Verify checksums from manifests'
complete -c multisum -s u -l update -r -d 'Bring MANIFEST in line with the tree, hashing only changed files'
complete -c multisum -l audit -r -d 'Report modified, corrupt, moved, new and missing files'
complete -c multisum -l piece-size -x -d 'Piece length of btih; with --update, a CRC-64 of each piece'
complete -c multisum -l private -d 'Btih of a private torrent'
complete -c multisum -l accept-corrupt -d 'With --update, record the new content of a corrupt file'
complete -c multisum -l shard -x -d 'Keep only the files of shard K of N'
complete -c multisum -l checkpoint -x -d 'Save the work of --update every SECONDS (0: at the end)'
complete -c multisum -l merge -d 'Merge shard manifests into one'
complete -c multisum -l partial -d 'Merge the shards there are, naming those missing'
complete -c multisum -l xattr -x -a 'update audit' -d 'Keep or audit digests in extended attributes'
complete -c multisum -l match -r -d 'Print only files whose digest is in a known set'
complete -c multisum -l unmatched -r -d 'Print only files whose digest is not in a known set'
complete -c multisum -l per-dir -x -a 'SHA256SUMS MD5SUMS B3SUMS' -d 'A manifest of this name in each folder'
complete -c multisum -l names-are-digests -a 'sha256 sha512' -d 'With -c DIR: every file named by its digest'
complete -c multisum -l tree-digest -x -a 'go-h1' -d "Print Go's h1: digest of a directory or zip"
complete -c multisum -l tree-prefix -x -d 'The names prefix in the tree digest (module@version)'
complete -c multisum -l part -x -d 'Hash part K of N of one file for --merge'
complete -c multisum -l expect -x -d 'Verify one file against a digest'
complete -c multisum -l root -x -a '(__fish_complete_directories)' -d "The folder of a torrent's, a Debian Packages index's or a Python RECORD's files"
complete -c multisum -l ignore-missing -d 'Do not fail for missing files'
complete -c multisum -l quiet -d 'Do not print OK lines'
complete -c multisum -l status -d 'Print nothing; exit status tells'
complete -c multisum -l strict -d 'Fail on improperly formatted lines'
complete -c multisum -s w -l warn -d 'Warn about improperly formatted lines'
complete -c multisum -l pubkey -r -F -d 'Signify, minisign or OpenSSH key the list must be signed with'
complete -c multisum -l allowed-signers -r -F -d 'OpenSSH allowed signers file for the list'"'"'s SSH signature'
complete -c multisum -l namespace -x -d 'Namespace of SSH signatures (default file)'
complete -c multisum -l keyring -r -F -d 'OpenPGP keys the list must be signed with (gpgv)'
complete -c multisum -l signature -r -F -d "The list's signature file"
complete -c multisum -l signer -x -d 'OpenPGP fingerprint or SSH principal that must have signed'
complete -c multisum -l sign -r -F -d 'Sign each list written (-o, -u, --merge, --per-dir)'
complete -c multisum -l sign-embedded -d 'Signify: the list under its signature in LIST.sig'
complete -c multisum -l passphrase-file -r -F -d "Read the secret key's passphrase from FILE"
complete -c multisum -l generate-key -x -d 'Make a minisign key pair NAME.key and NAME.pub'
complete -c multisum -l no-passphrase -d 'Do not encrypt the new secret key'
complete -c multisum -s r -l recursive -d 'Walk directories'
complete -c multisum -s L -l dereference -d 'Follow symlinks inside directories'
complete -c multisum -l exclude -x -d 'Skip names matching a glob'
complete -c multisum -l files-from -r -d 'Read operands from a file'
complete -c multisum -l files0-from -r -d 'Read NUL-separated operands from a file'
complete -c multisum -l archive -r -d 'Hash the members of an archive'
complete -c multisum -l stdin-name -x -d 'Name standard input in the output'
complete -c multisum -l printf -x -d 'Write each file as an RHash template'
complete -c multisum -l template -r -F -d 'Read the RHash template from FILE'
complete -c multisum -s k -l check-embedded -d 'Check the CRC32 each file name carries'
complete -c multisum -l embed-crc -d 'Rename each file to carry its CRC32'
complete -c multisum -l embed-crc-delimiter -x -d 'The character before [CRC] (default: a space)'
complete -c multisum -l io -x -a 'auto mmap read' -d 'Reading method'
complete -c multisum -l buffer-size -x -d 'Bytes per read'
complete -c multisum -l nocache -d 'Drop each file from the page cache once read'
complete -c multisum -l memory -x -d 'Bound on all buffers'
complete -c multisum -l part-size -x -d 'Part size of s3etag and s3-*'
complete -c multisum -l bytes-per-crc -x -d 'Bytes per CRC of hdfs-md5md5crc32c'
complete -c multisum -l block-size -x -d 'Block size of hdfs-md5md5crc32c'
complete -c multisum -s j -l jobs -x -d 'Worker threads'
complete -c multisum -l progress -d 'Show a progress line'
complete -c multisum -l no-progress -d 'Never show a progress line'
complete -c multisum -l bench -d 'Measure algorithm speed on this machine'
complete -c multisum -l bench-time -x -d 'Time budget of the benchmark'
complete -c multisum -l bench-baseline -x -a '(__multisum_algorithms)' -d 'Reference algorithm of the ratio column'
complete -c multisum -l ascii -d 'Plain ASCII bar chart'
complete -c multisum -l debug -d 'Tell which backend computes each algorithm'
complete -c multisum -l help -d 'Display help'
complete -c multisum -l version -d 'Display version'
