# SPDX-License-Identifier: BSD-2-Clause
# sshsig-sk.py - an SSH signature by a FIDO key (sk-ssh-ed25519@openssh.com
# or sk-ecdsa-sha2-nistp256@openssh.com), made without hardware from
# OpenSSH's PROTOCOL.sshsig and PROTOCOL.u2f with Python's cryptography,
# for tests/signature-ssh.sh: what the authenticator signs is
# SHA-256(application) || flags || counter || SHA-256(the SSHSIG blob).
# Usage: sshsig-sk.py ed25519|ecdsa FLAGS LIST NAMESPACE OUT
# writes OUT.pub (the public key line) and LIST.sig.
import base64
import hashlib
import struct
import sys

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519
from cryptography.hazmat.primitives.asymmetric.utils import \
    decode_dss_signature


def string(b):
    return struct.pack('>I', len(b)) + b


def mpint(n):
    b = n.to_bytes((n.bit_length() + 7) // 8, 'big')
    return string(b'\0' + b if b and b[0] & 0x80 else b)


kind, flags, path, ns, out = sys.argv[1], int(sys.argv[2]), *sys.argv[3:]
app, counter = b'ssh:', 7
msg = open(path, 'rb').read()
if kind == 'ed25519':
    ktype = b'sk-ssh-ed25519@openssh.com'
    key = ed25519.Ed25519PrivateKey.generate()
    raw = key.public_key().public_bytes(serialization.Encoding.Raw,
                                        serialization.PublicFormat.Raw)
    pub = string(ktype) + string(raw) + string(app)
else:
    ktype = b'sk-ecdsa-sha2-nistp256@openssh.com'
    key = ec.generate_private_key(ec.SECP256R1())
    q = key.public_key().public_bytes(
        serialization.Encoding.X962,
        serialization.PublicFormat.UncompressedPoint)
    pub = string(ktype) + string(b'nistp256') + string(q) + string(app)
blob = (b'SSHSIG' + string(ns.encode()) + string(b'') + string(b'sha512') +
        string(hashlib.sha512(msg).digest()))
tail = bytes([flags]) + struct.pack('>I', counter)
signed = (hashlib.sha256(app).digest() + tail +
          hashlib.sha256(blob).digest())
if kind == 'ed25519':
    sig = string(ktype) + string(key.sign(signed)) + tail
else:
    r, s = decode_dss_signature(key.sign(signed, ec.ECDSA(hashes.SHA256())))
    sig = string(ktype) + string(mpint(r) + mpint(s)) + tail
whole = (b'SSHSIG' + struct.pack('>I', 1) + string(pub) +
         string(ns.encode()) + string(b'') + string(b'sha512') + string(sig))
b64 = base64.b64encode(whole).decode()
with open(path + '.sig', 'w') as f:
    f.write('-----BEGIN SSH SIGNATURE-----\n')
    for i in range(0, len(b64), 70):
        f.write(b64[i:i + 70] + '\n')
    f.write('-----END SSH SIGNATURE-----\n')
with open(out + '.pub', 'w') as f:
    f.write('%s %s sk@test\n' % (ktype.decode(),
                                 base64.b64encode(pub).decode()))
