"""Real OpenID Connect providers for the sign-in tests, on this machine: PyPI's oidc-provider-mock
(a complete provider: discovery, JWKS, authorization form, token endpoint, RS256 ID tokens).

Runs, until killed, three providers and prints their ports as one JSON line:
  "school":   an ordinary provider;
  "expired":  one whose ID tokens expired five minutes before they were made;
  "tampered": a proxy in front of "school" that changes the email in every ID token it passes on,
              keeping the provider's signature (a token altered on its way).

  .build/venv-oidc/bin/python scripts/test/oidc/providers.py
"""
import base64
import http.client
import http.server
import json
import os
import socketserver
import sys
import threading
from datetime import timedelta

import werkzeug.serving

os.environ["AUTHLIB_INSECURE_TRANSPORT"] = "1"  # plain http, on 127.0.0.1 only
import oidc_provider_mock  # noqa: E402


def serve_provider(token_max_age: timedelta) -> int:
    server = werkzeug.serving.make_server(
        "127.0.0.1", 0, oidc_provider_mock.app(access_token_max_age=token_max_age), threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server.server_port


def unpadded(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def tamper(id_token: str) -> str:
    """The same token with another email in its payload and the original signature."""
    header, payload, signature = id_token.split(".")
    claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    claims["email"] = "mallory@evil.example"
    return ".".join([header, unpadded(json.dumps(claims).encode()), signature])


def serve_tampering_proxy(upstream_port: int) -> int:
    class Proxy(http.server.BaseHTTPRequestHandler):
        def forward(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else None
            upstream = http.client.HTTPConnection("127.0.0.1", upstream_port, timeout=10)
            # Host is passed on as it came: the provider names itself (issuer, endpoints) after
            # the proxy, so everything, the browser included, goes through here.
            headers = {k: v for k, v in self.headers.items() if k.lower() not in ("connection", "content-length")}
            upstream.request(self.command, self.path, body=body, headers=headers)
            answer = upstream.getresponse()
            data = answer.read()
            if self.path.startswith("/oauth2/token") and answer.status == 200:
                token = json.loads(data)
                token["id_token"] = tamper(token["id_token"])
                data = json.dumps(token).encode()
            self.send_response(answer.status)
            for key, value in answer.getheaders():
                if key.lower() not in ("content-length", "transfer-encoding", "connection", "server", "date"):
                    self.send_header(key, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = do_PUT = forward

        def log_message(self, *args):
            pass

    class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
        daemon_threads = True

    server = Server(("127.0.0.1", 0), Proxy)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server.server_address[1]


if __name__ == "__main__":
    school = serve_provider(timedelta(hours=1))
    expired = serve_provider(timedelta(seconds=-300))
    tampered = serve_tampering_proxy(school)
    print(json.dumps({"school": school, "expired": expired, "tampered": tampered}), flush=True)
    threading.Event().wait()
