"""The browser board: play a player the referee knows, watch a match as it is played, replay logs.

One aiohttp application serves the page (``static/``) and a websocket, ``/ws``, that carries
everything live. The server sends ``{"type": "view", ...}`` whenever the game changes (the
board as SVG from :func:`trax_fpga.host.svg.board_svg`, the moves, whose turn, each side's time,
the result, the opponent's search figures) and ``{"type": "replay", ...}`` with every position of
a log that the page opened. The page sends ``{"type": "move", "move": "B1/"}``, ``"resign"``,
``"new"`` (another game once one is over) and ``{"type": "open", "name": ..., "text": ...}``
(a log file to replay).

A game is played by the same :class:`~trax_fpga.host.referee.Referee` as ``trax match``, in a
thread of its own: the person is a :class:`WebPlayer` whose answers come from the page. A match
is watched by following its log folder (``trax match --log-dir DIR``): the newest game's log,
re-read as it grows, and ``results.txt`` for the results.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import queue
import re
import threading
import time
from importlib import resources
from pathlib import Path

from aiohttp import WSMsgType, web

from ..host.errors import TraxError
from ..host.gamelog import GameRecord
from ..host.notation import Move
from ..host.players import Player, ResignedError, search_text
from ..host.position import Position
from ..host.referee import Referee
from ..host.svg import board_svg, cell_name, tile_svg
from ..host.tiles import Colour

__all__ = ["GameView", "PlaySession", "WatchSession", "WebPlayer", "make_app", "read_log", "serve"]

log = logging.getLogger("trax.web")

_STATIC = resources.files(__package__).joinpath("static")


# --- what the page shows ------------------------------------------------------------------------


@dataclasses.dataclass
class MoveEntry:
    """One move as the page lists it."""

    text: str
    colour: str
    seconds: float | None = None
    forced: list[str] = dataclasses.field(default_factory=list)


class GameView:
    """A game as it stands: the position, the moves, the clocks. Not thread-safe by itself."""

    def __init__(self, white: str = "white", black: str = "black") -> None:
        self.white, self.black = white, black
        self.position = Position()
        self.moves: list[MoveEntry] = []
        self.clocks = {"white": 0.0, "black": 0.0}
        self.result: str | None = None
        self.since = time.monotonic()  # when the side to move began to think

    def play(self, text: str, seconds: float | None = None) -> None:
        """Play ``text`` (a move already judged legal) with its forced plays."""
        mover = self.position.turn
        turn = self.position.play(text)
        # Named as the picture after the move labels them.
        forced = [cell_name(self.position, cell) for cell, _ in turn.forced]
        self.moves.append(MoveEntry(text, mover.word, seconds, forced))
        if seconds is not None:
            self.clocks[mover.word] += seconds
        self.since = time.monotonic()

    def turn(self) -> str | None:
        if self.result is not None or self.position.outcome is not None:
            return None
        return self.position.turn.word

    def choices(self) -> dict[str, list[dict]]:
        """For each cell where a legal move goes: the moves and the tile each would place."""
        out: dict[str, list[dict]] = {}
        for move in self.position.legal_moves():
            cell = self.position.cell_of(move)
            self.position.play(move)
            tile = self.position.tiles[cell]
            self.position.pop()
            name = str(move)[:-1]
            out.setdefault(name, []).append({"move": str(move), "svg": tile_svg(tile, 56)})
        return out

    def data(self) -> dict:
        outcome = self.position.outcome
        return {
            "white": self.white,
            "black": self.black,
            "turn": self.turn(),
            "thinking_for": time.monotonic() - self.since if self.turn() else 0,
            "moves": [dataclasses.asdict(m) for m in self.moves],
            "clocks": self.clocks,
            "result": self.result or (str(outcome) if outcome else None),
            "svg": board_svg(self.position),
        }


def _search_text(player: Player) -> str | None:
    """The search figures of the player's last answer, if it reports any."""
    return search_text(getattr(player, "last_search", None))


# --- playing ------------------------------------------------------------------------------------


#: Put in the person's queue when the server stops: the person's side leaves the game.
_STOP = object()


class WebPlayer(Player):
    """The person at the page: each answer is the move the page sends (never timed)."""

    timed = False

    def __init__(self, session: PlaySession, name: str = "you") -> None:
        super().__init__(name)
        self.session = session
        self.moves: queue.Queue = queue.Queue()

    def new_game(self, colour: Colour) -> None:
        with contextlib.suppress(queue.Empty):
            while True:
                self.moves.get_nowait()

    def answer(self, move: str | None, timeout: float | None) -> str:
        self.session.waiting(True)
        try:
            answer = self.moves.get()
        finally:
            self.session.waiting(False)
        if answer is _STOP or answer == "resign":
            raise ResignedError(f"{self.name} resigned" if answer == "resign" else "stopped")
        return answer


class _LiveLog:
    """What the referee writes to a game log, shown on the page as it is played."""

    def __init__(self, session: PlaySession) -> None:
        self.session = session

    def write_move(self, move: str) -> None:
        self.session.moved(move)

    def write_note(self, text: str) -> None:
        """A note of the referee's (stray output, a fault's detail): not shown on the board."""

    def finish(self, record) -> None:
        """The game's result: the page learns it from the record ``play_game`` returns."""

    def close(self) -> None:
        pass


class PlaySession:
    """A person against ``opponent``, one game after another, refereed in a thread."""

    mode = "play"

    def __init__(
        self,
        opponent: Player,
        colour: Colour = Colour.WHITE,
        time_limit: float | None = None,
        notice: str | None = None,
    ) -> None:
        self.opponent = opponent
        self.colour = colour
        self.referee = Referee(time_limit=time_limit or None)
        self.notice = notice
        self.human = WebPlayer(self)
        self.lock = threading.RLock()
        self.game = GameView()
        self.number = 0
        self.waiting_for_you = False
        self.error: str | None = None
        self.listeners: list = []
        self.playing = False  # a game is being played (its thread runs)

    # called from the page (the event loop's thread)

    def start(self) -> None:
        """Start a new game (if none is being played)."""
        with self.lock:
            if self.playing:
                return
            self.playing = True
            self.number += 1
            white, black = (
                (self.human.name, self.opponent.name)
                if self.colour is Colour.WHITE
                else (self.opponent.name, self.human.name)
            )
            self.game = GameView(white, black)
            threading.Thread(target=self._play, name="game", daemon=True).start()
        self.changed()

    def submit(self, text: str) -> str | None:
        """The page's move; returns why it is refused, or None."""
        with self.lock:
            if not self.waiting_for_you:
                return "it is not your turn"
            try:
                legal = self.game.position.is_legal(text)
            except TraxError as error:
                return str(error)
            if not legal:
                return f"{text} is not a legal move here"
            self.waiting_for_you = False
        self.human.moves.put(text)
        return None

    def resign(self) -> None:
        self.human.moves.put("resign")

    def stop(self) -> None:
        self.human.moves.put(_STOP)

    # called from the game's thread

    def _play(self) -> None:
        you = self.human
        white, black = (you, self.opponent) if self.colour is Colour.WHITE else (self.opponent, you)
        try:
            self.opponent.prepare_game()  # (a program of one game a process: a fresh one)
            record = self.referee.play_game(white, black, self.number, lambda w, b: _LiveLog(self))
        except Exception as error:  # shown on the page, never a traceback
            log.exception("the game stopped")
            with self.lock:
                self.game.result = f"the game stopped: {type(error).__name__}: {error}"
                self.playing = False
        else:
            with self.lock:
                self.game.result = _result_words(record, self.colour)
                self.playing = False
        self.changed()

    def moved(self, text: str) -> None:
        with self.lock:
            seconds = time.monotonic() - self.game.since
            self.game.play(text, seconds)
        self.changed()

    def waiting(self, flag: bool) -> None:
        with self.lock:
            self.waiting_for_you = flag
            if flag:
                self.game.since = time.monotonic()
        self.changed()

    # what the page sees

    def changed(self) -> None:
        for listener in list(self.listeners):
            listener()

    def view(self) -> dict:
        with self.lock:
            data = self.game.data()
            data.update(
                type="view",
                mode="play",
                number=self.number,
                you=self.colour.word,
                opponent=self.opponent.name,
                your_turn=self.waiting_for_you,
                choices=self.game.choices() if self.waiting_for_you else {},
                search=_search_text(self.opponent),
                notice=self.notice,
                over=not self.playing,
            )
            return data


def _result_words(record: GameRecord, you: Colour) -> str:
    text = record.describe()
    if record.winner is you:
        return f"You win: {text}"
    if record.winner is None:
        return f"No winner: {text}"
    return f"You lose: {text}"


# --- watching and replaying ---------------------------------------------------------------------

_LOG_NAME = re.compile(r"^(\d{4})-.*\.log$")


def read_log(text: str) -> dict:
    """A game log (``trax match``'s, or the public referee's): its players, moves and headers.

    The log's first lines are ``Trax`` and ``WHITE vs BLACK``; every line that is a move in
    notation is a move; any other line (a header, a comment) is kept as a header line.
    """
    white, black = "white", "black"
    moves: list[str] = []
    headers: list[str] = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line == "Trax":
            continue
        if " vs " in line and not moves and (white, black) == ("white", "black"):
            white, _, black = line.partition(" vs ")
            continue
        try:
            Move.parse(line)
        except TraxError:
            headers.append(line)
            continue
        moves.append(line)
    return {"white": white.strip(), "black": black.strip(), "moves": moves, "headers": headers}


def replay(name: str, text: str) -> dict:
    """Every position of a logged game, as the page steps through them."""
    game = read_log(text)
    view = GameView(game["white"], game["black"])
    frames = [board_svg(view.position)]
    error = None
    for move in game["moves"]:
        try:
            view.play(move)
        except TraxError as problem:
            error = f"move {len(view.moves) + 1} ({move}): {problem}"
            break
        frames.append(board_svg(view.position))
    outcome = view.position.outcome
    return {
        "type": "replay",
        "name": name,
        "white": view.white,
        "black": view.black,
        "moves": [dataclasses.asdict(m) for m in view.moves],
        "frames": frames,
        "headers": game["headers"],
        "result": error or (str(outcome) if outcome else None),
    }


class WatchSession:
    """A match as it is played: follows the newest game log in ``directory``."""

    mode = "watch"

    def __init__(self, directory: str | Path, interval: float = 0.3) -> None:
        self.directory = Path(directory)
        self.interval = interval
        self.listeners: list = []
        self.lock = threading.Lock()
        self._seen: tuple = ()
        self._view: dict = self._read()

    def start(self) -> None:
        threading.Thread(target=self._follow, name="watch", daemon=True).start()

    def stop(self) -> None:
        pass

    def _follow(self) -> None:
        while True:
            time.sleep(self.interval)
            try:
                view = self._read()
            except OSError as error:
                log.warning("cannot read %s: %s", self.directory, error)
                continue
            with self.lock:
                changed = view != self._view
                self._view = view
            if changed:
                for listener in list(self.listeners):
                    listener()

    def _results(self) -> dict[int, GameRecord]:
        results = {}
        path = self.directory / "results.txt"
        if path.exists():
            for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
                if not line or line.startswith("#"):
                    continue
                with contextlib.suppress(ValueError, KeyError):
                    record = GameRecord.from_line(line)
                    results[record.number] = record
        return results

    def _read(self) -> dict:
        logs = sorted(
            (int(m[1]), p)
            for p in (self.directory.glob("*.log") if self.directory.is_dir() else [])
            if (m := _LOG_NAME.match(p.name))
        )
        results = self._results()
        games = [
            {
                "number": number,
                "name": path.name,
                "result": results[number].describe() if number in results else "playing",
            }
            for number, path in logs
        ]
        if not logs:
            view = GameView()
            data = view.data()
            data["result"] = None
            status = f"waiting for a game in {self.directory}"
        else:
            number, path = logs[-1]
            game = read_log(path.read_text(encoding="utf-8", errors="replace"))
            view = GameView(game["white"], game["black"])
            for move in game["moves"]:
                try:
                    view.play(move)
                except TraxError:
                    break
            data = view.data()
            data.pop("thinking_for")
            if number in results:
                data["result"] = results[number].describe()
            status = f"game {number}: {game['white']} vs {game['black']}"
        data.update(type="view", mode="watch", games=games, status=status, notice=None)
        data.pop("thinking_for", None)
        return data

    def view(self) -> dict:
        with self.lock:
            return dict(self._view)

    def open(self, name: str) -> dict | None:
        """The replay of game log ``name`` of the watched folder."""
        path = self.directory / Path(name).name
        if not _LOG_NAME.match(path.name) or not path.exists():
            return None
        return replay(path.name, path.read_text(encoding="utf-8", errors="replace"))


# --- the server ---------------------------------------------------------------------------------


def make_app(session) -> web.Application:
    """The aiohttp application serving the page and its websocket for ``session``."""
    app = web.Application()
    sockets: set[web.WebSocketResponse] = set()
    app["sockets"] = sockets

    async def index(request: web.Request) -> web.Response:
        return web.Response(
            text=_STATIC.joinpath("index.html").read_text(encoding="utf-8"),
            content_type="text/html",
        )

    async def static(request: web.Request) -> web.Response:
        name = request.match_info["name"]
        types = {".js": "text/javascript", ".css": "text/css"}
        suffix = Path(name).suffix
        if suffix not in types or "/" in name:
            raise web.HTTPNotFound()
        source = _STATIC.joinpath(name)
        if not source.is_file():
            raise web.HTTPNotFound()
        return web.Response(text=source.read_text(encoding="utf-8"), content_type=types[suffix])

    async def send_all() -> None:
        message = json.dumps(session.view())
        for socket in list(sockets):
            with contextlib.suppress(ConnectionError, RuntimeError):
                await socket.send_str(message)

    loop_holder: dict = {}

    def listener() -> None:
        loop = loop_holder.get("loop")
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(lambda: asyncio.ensure_future(send_all()))

    session.listeners.append(listener)

    async def websocket(request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse(heartbeat=30)
        await socket.prepare(request)
        sockets.add(socket)
        try:
            await socket.send_str(json.dumps(session.view()))
            async for message in socket:
                if message.type != WSMsgType.TEXT:
                    continue
                try:
                    data = json.loads(message.data)
                except ValueError:
                    continue
                reply = _handle(session, data)
                if reply is not None:
                    await socket.send_str(json.dumps(reply))
        finally:
            sockets.discard(socket)
        return socket

    async def on_startup(app: web.Application) -> None:
        loop_holder["loop"] = asyncio.get_running_loop()
        session.start()

    async def on_shutdown(app: web.Application) -> None:
        session.stop()
        for socket in list(sockets):
            await socket.close()

    async def icon(request: web.Request) -> web.Response:
        from ..host.tiles import Tile

        return web.Response(text=tile_svg(Tile.NW, 32), content_type="image/svg+xml")

    app.router.add_get("/", index)
    app.router.add_get("/favicon.ico", icon)
    app.router.add_get("/static/{name}", static)
    app.router.add_get("/ws", websocket)
    app.on_startup.append(on_startup)
    app.on_shutdown.append(on_shutdown)
    return app


def _handle(session, data: dict) -> dict | None:
    """One message of the page; the reply to send back to that page only, if any."""
    kind = data.get("type")
    if kind == "open":
        text = str(data.get("text", ""))
        if "\0" in text:
            return {"type": "error", "error": f"{data.get('name')}: not a text file"}
        return replay(str(data.get("name", "log")), text)
    if kind == "open-game" and isinstance(session, WatchSession):
        return session.open(str(data.get("name", ""))) or {
            "type": "error",
            "error": "no such game",
        }
    if not isinstance(session, PlaySession):
        return None
    if kind == "move":
        refused = session.submit(str(data.get("move", "")))
        return None if refused is None else {"type": "error", "error": refused}
    if kind == "resign":
        session.resign()
    elif kind == "new":
        session.start()
    return None


def serve(session, host: str = "127.0.0.1", port: int = 8714, announce=print) -> None:
    """Serve the page for ``session`` until Ctrl-C; ``announce`` hears the page's address."""

    async def main() -> None:
        runner = web.AppRunner(make_app(session), handle_signals=False)
        await runner.setup()
        site = web.TCPSite(runner, host, port)
        try:
            await site.start()
        except OSError as error:
            await runner.cleanup()
            raise TraxError(f"cannot serve on {host}:{port}: {error.strerror}") from None
        bound = runner.addresses[0][1] if runner.addresses else port
        announce(f"http://{host}:{bound}/")
        try:
            await asyncio.Event().wait()
        finally:
            await runner.cleanup()

    asyncio.run(main())
