"""An 8N1 UART: a receiver and a transmitter with byte streams, the baud rate fixed at build time.

A frame is a start bit (low), 8 data bits least significant first, and a stop bit (high); the
line idles high. Both directions use one clock divisor: clock cycles per bit, ``divisor_for``.
"""

from __future__ import annotations

from amaranth import Cat, Module, Signal
from amaranth.lib import stream, wiring
from amaranth.lib.cdc import FFSynchronizer
from amaranth.lib.wiring import In, Out

__all__ = ["MIN_DIVISOR", "UART", "UARTReceiver", "UARTTransmitter", "divisor_for"]

#: The smallest clock divisor the receiver handles: it must find the middle of the start bit
#: (half a bit after the falling edge) and be idle again before the next frame's start bit.
MIN_DIVISOR = 4

#: The largest relative error allowed between the requested baud rate and the one the integer
#: divisor gives; the receivers at both ends tolerate a few per cent in total.
MAX_BAUD_ERROR = 0.01


def divisor_for(clk_freq: float, baud: int = 19200) -> int:
    """The clock divisor (cycles per bit) for ``baud`` at ``clk_freq`` Hz, rounded to nearest.

    Raises :exc:`ValueError` if the rounded divisor is below :data:`MIN_DIVISOR` or misses the
    baud rate by more than :data:`MAX_BAUD_ERROR`.
    """
    if not isinstance(clk_freq, int | float) or clk_freq <= 0:
        raise ValueError(f"clock frequency must be a positive number, not {clk_freq!r}")
    if not isinstance(baud, int) or baud <= 0:
        raise ValueError(f"baud rate must be a positive integer, not {baud!r}")
    divisor = round(clk_freq / baud)
    if divisor < MIN_DIVISOR:
        raise ValueError(
            f"baud rate {baud} is too fast for a {clk_freq} Hz clock "
            f"(divisor {clk_freq / baud:.2f}, at least {MIN_DIVISOR} needed)"
        )
    error = abs(clk_freq / divisor - baud) / baud
    if error > MAX_BAUD_ERROR:
        raise ValueError(
            f"baud rate {baud} at a {clk_freq} Hz clock is off by {error:.2%} with divisor "
            f"{divisor} (at most {MAX_BAUD_ERROR:.0%} allowed)"
        )
    return divisor


def _check_divisor(divisor: int) -> None:
    if not isinstance(divisor, int) or isinstance(divisor, bool) or divisor < MIN_DIVISOR:
        raise ValueError(f"divisor must be an integer of at least {MIN_DIVISOR}, not {divisor!r}")


class UARTReceiver(wiring.Component):
    """8N1 receiver.

    Parameters
    ----------
    divisor : int
        Clock cycles per bit (see :func:`divisor_for`), at least :data:`MIN_DIVISOR`.

    Members
    -------
    rx : In(1)
        The serial line, straight from the pin: synchronised inside.
    o_stream : Out(stream.Signature(8))
        Received bytes. The payload holds while ``valid`` and not ``ready``.
    framing_error : Out(1)
        One-cycle strobe: a frame's stop bit was low. Its byte is dropped, and the receiver waits
        for the line to go high (the end of a break) before it looks for a start bit again.
    overrun : Out(1)
        One-cycle strobe: a byte arrived while the previous one was still not taken; the new
        byte is dropped.

    A start bit must still be low half a bit after the falling edge, so that a glitch shorter
    than half a bit starts no frame. Bits are sampled at their centres.
    """

    def __init__(self, divisor: int) -> None:
        _check_divisor(divisor)
        self._divisor = divisor
        super().__init__(
            {
                "rx": In(1, init=1),
                "o_stream": Out(stream.Signature(8)),
                "framing_error": Out(1),
                "overrun": Out(1),
            }
        )

    @property
    def divisor(self) -> int:
        return self._divisor

    def elaborate(self, platform):
        m = Module()
        divisor = self._divisor

        line = Signal(init=1)
        m.submodules.rx_sync = FFSynchronizer(self.rx, line, init=1)

        timer = Signal(range(divisor))
        bits_left = Signal(range(8))
        shift = Signal(8)

        m.d.sync += [self.framing_error.eq(0), self.overrun.eq(0)]
        with m.If(self.o_stream.ready):
            m.d.sync += self.o_stream.valid.eq(0)

        with m.FSM():
            with m.State("IDLE"), m.If(~line):
                m.d.sync += timer.eq(divisor // 2 - 1)
                m.next = "START"
            with m.State("START"):
                with m.If(timer != 0):
                    m.d.sync += timer.eq(timer - 1)
                with m.Elif(line):
                    m.next = "IDLE"  # high again at mid-bit: a glitch, not a start bit
                with m.Else():
                    m.d.sync += [timer.eq(divisor - 1), bits_left.eq(7)]
                    m.next = "DATA"
            with m.State("DATA"):
                with m.If(timer != 0):
                    m.d.sync += timer.eq(timer - 1)
                with m.Else():
                    m.d.sync += [shift.eq(Cat(shift[1:], line)), timer.eq(divisor - 1)]
                    m.d.sync += bits_left.eq(bits_left - 1)
                    with m.If(bits_left == 0):
                        m.next = "STOP"
            with m.State("STOP"):
                with m.If(timer != 0):
                    m.d.sync += timer.eq(timer - 1)
                with m.Elif(line):
                    with m.If(~self.o_stream.valid | self.o_stream.ready):
                        m.d.sync += [self.o_stream.payload.eq(shift), self.o_stream.valid.eq(1)]
                    with m.Else():
                        m.d.sync += self.overrun.eq(1)
                    m.next = "IDLE"
                with m.Else():
                    m.d.sync += self.framing_error.eq(1)
                    m.next = "BREAK"
            with m.State("BREAK"), m.If(line):
                m.next = "IDLE"

        return m


class UARTTransmitter(wiring.Component):
    """8N1 transmitter.

    Parameters
    ----------
    divisor : int
        Clock cycles per bit (see :func:`divisor_for`), at least :data:`MIN_DIVISOR`.

    Members
    -------
    i_stream : In(stream.Signature(8))
        Bytes to send. A byte offered before the current stop bit ends is taken in the stop
        bit's last cycle, so back-to-back bytes go out as back-to-back frames of exactly
        ``10 * divisor`` cycles each.
    tx : Out(1)
        The serial line (registered, high when idle).
    """

    def __init__(self, divisor: int) -> None:
        _check_divisor(divisor)
        self._divisor = divisor
        super().__init__({"i_stream": In(stream.Signature(8)), "tx": Out(1, init=1)})

    @property
    def divisor(self) -> int:
        return self._divisor

    def elaborate(self, platform):
        m = Module()
        divisor = self._divisor

        timer = Signal(range(divisor))
        bits_left = Signal(range(10))  # bits after the one on the line: 8 data + stop
        shift = Signal(9)  # data then stop, least significant first

        def start_frame():
            m.d.comb += self.i_stream.ready.eq(1)
            with m.If(self.i_stream.valid):
                m.d.sync += [
                    self.tx.eq(0),
                    shift.eq(Cat(self.i_stream.payload, 1)),
                    bits_left.eq(9),
                    timer.eq(divisor - 1),
                ]
                m.next = "SEND"

        with m.FSM():
            with m.State("IDLE"):
                start_frame()
            with m.State("SEND"):
                with m.If(timer != 0):
                    m.d.sync += timer.eq(timer - 1)
                with m.Elif(bits_left != 0):
                    m.d.sync += [
                        self.tx.eq(shift[0]),
                        shift.eq(shift[1:]),
                        bits_left.eq(bits_left - 1),
                        timer.eq(divisor - 1),
                    ]
                with m.Else():
                    # The last cycle of the stop bit: start the next frame now, or go idle.
                    m.next = "IDLE"
                    start_frame()

        return m


class UART(wiring.Component):
    """An 8N1 receiver and transmitter at one baud rate.

    Parameters
    ----------
    divisor : int
        Clock cycles per bit (see :func:`divisor_for`).

    Members
    -------
    rx : In(1)
        Serial input pin (synchronised inside).
    tx : Out(1)
        Serial output pin.
    rx_stream : Out(stream.Signature(8))
        Received bytes (see :class:`UARTReceiver`).
    tx_stream : In(stream.Signature(8))
        Bytes to send (see :class:`UARTTransmitter`).
    framing_error, overrun : Out(1)
        The receiver's error strobes.
    """

    def __init__(self, divisor: int) -> None:
        _check_divisor(divisor)
        self._divisor = divisor
        super().__init__(
            {
                "rx": In(1, init=1),
                "tx": Out(1, init=1),
                "rx_stream": Out(stream.Signature(8)),
                "tx_stream": In(stream.Signature(8)),
                "framing_error": Out(1),
                "overrun": Out(1),
            }
        )

    def elaborate(self, platform):
        m = Module()
        m.submodules.receiver = receiver = UARTReceiver(self._divisor)
        m.submodules.transmitter = transmitter = UARTTransmitter(self._divisor)
        wiring.connect(m, wiring.flipped(self.rx_stream), receiver.o_stream)
        wiring.connect(m, wiring.flipped(self.tx_stream), transmitter.i_stream)
        m.d.comb += [
            receiver.rx.eq(self.rx),
            self.tx.eq(transmitter.tx),
            self.framing_error.eq(receiver.framing_error),
            self.overrun.eq(receiver.overrun),
        ]
        return m
