"""A real SMTP server for the notification tests (aiosmtpd, Debian's python3-aiosmtpd).

Usage: python3 smtp-test-server.py PORT CERT KEY USER PASSWORD
Listens on 127.0.0.1:PORT, requires STARTTLS (with CERT and KEY) and AUTH (USER, PASSWORD) before
mail, and prints one JSON line per accepted message on stdout ({"ready": true} first). It stops
when its stdin closes.
"""
import json
import ssl
import sys

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

port, cert, key, user, password = sys.argv[1:6]


class Handler:
    async def handle_DATA(self, server, session, envelope):
        print(
            json.dumps(
                {
                    "from": envelope.mail_from,
                    "to": envelope.rcpt_tos,
                    "data": envelope.content.decode("utf8", "replace"),
                    "tls": session.ssl is not None,
                    "authenticated": bool(session.authenticated),
                }
            ),
            flush=True,
        )
        return "250 Message accepted for delivery"


def authenticator(server, session, envelope, mechanism, auth_data):
    ok = (
        isinstance(auth_data, LoginPassword)
        and auth_data.login.decode() == user
        and auth_data.password.decode() == password
    )
    return AuthResult(success=ok, handled=False)


context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
context.load_cert_chain(cert, key)
controller = Controller(
    Handler(),
    hostname="127.0.0.1",
    port=int(port),
    tls_context=context,
    require_starttls=True,
    authenticator=authenticator,
    auth_required=True,
    auth_require_tls=True,
)
controller.start()
print(json.dumps({"ready": True}), flush=True)
try:
    sys.stdin.read()
finally:
    controller.stop()
