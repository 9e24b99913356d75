"""A TCP proxy for the browser tests, put between the browser and the server to make what a real
network does to a request: passes every byte both ways, except what a subclass's `intercept`
takes over."""
import socket
import threading

from harness import free_port


class InterceptingProxy:
    """Listens on a free port of 127.0.0.1 (`base`) and connects each client to `port`."""

    def __init__(self, port):
        self.upstream = port
        self.listener = socket.create_server(("127.0.0.1", free_port()))
        self.base = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        threading.Thread(target=self.accept, daemon=True).start()

    def connection_state(self):
        """What one connection's two directions share (a subclass keeps its flags there)."""
        return {}

    def intercept(self, data, source, from_client, state):
        """Called with each chunk read; True ends this connection without passing the chunk on."""
        return False

    def accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(("127.0.0.1", self.upstream))
            state = self.connection_state()
            threading.Thread(target=self.pipe, args=(client, server, state, True), daemon=True).start()
            threading.Thread(target=self.pipe, args=(server, client, state, False), daemon=True).start()

    def pipe(self, source, target, state, from_client):
        try:
            while True:
                data = source.recv(65536)
                if not data or self.intercept(data, source, from_client, state):
                    break
                target.sendall(data)
        except OSError:
            pass
        finally:
            for end in (source, target):
                try:
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                end.close()

    def close(self):
        self.listener.close()
