"""The python-ev3dev2 backend driven through the real library against a virtual brick."""

import threading

import pytest

from cubebot.robot.errors import DeviceMissing, MotorStalled
from cubebot.robot.hw.virtual_brick.brick import VirtualBrick

from .fakes import StillWorld, ports

import ev3dev2  # noqa: F401,E402 - a required dependency: a broken install fails, never skips


@pytest.fixture
def brick():
    world = StillWorld()
    with VirtualBrick(world, ports()) as b:
        yield b


def test_devices_found_and_optional_ones_noted(brick):
    hw = brick.make_hardware()
    assert [m.port for m in hw.motors()] == ["outA", "outB", "outC"]
    assert [m.name for m in hw.motors()] == ["flipper", "table", "arm"]
    assert hw.color.read_rgb_raw() == (120, 200, 90)
    assert hw.proximity.kind == "infrared"
    assert abs(hw.proximity.read_distance_cm() - 4.0) < 0.71  # IR reports whole percent of 70 cm
    assert abs(hw.battery.read_voltage_v() - 7.9) < 1e-6
    # No /dev/fb0, no evdev here: the backend carries on without them and says so.
    assert hw.screen is None and hw.buttons is None
    assert any("screen" in note for note in hw.notes)


def test_homing_by_stall_then_moves_reach_targets(brick):
    hw = brick.make_hardware()
    hw.flipper.run_until_stalled(-50, timeout_s=10)
    hw.flipper.reset_position(0)
    assert brick.shaft_deg("flipper") == 0.0
    hw.arm.run_until_stalled(500, timeout_s=10)
    hw.arm.reset_position(0)
    hw.arm.run_to_position(-750, 500, timeout_s=5)
    assert hw.arm.position_deg() == -750
    assert brick.shaft_deg("arm") == -750.0
    hw.table.run_to_position(270, 600, timeout_s=5)
    hw.table.run_to_position(-18, 600, timeout_s=5)  # shorter number over a longer one: no stale tail
    assert hw.table.position_deg() == -18
    assert brick.world.angles == (0.0, -18.0, -750.0)
    assert "holding" in brick.motor_state("table")


def _settle(brick, raw):
    brick.clock.sleep_s(0.1)
    while "running" in raw.state:
        brick.clock.sleep_s(0.05)


def test_library_writes_without_truncating_are_understood(brick):
    import ev3dev2.motor as m
    brick.make_hardware()             # points ev3dev2 at the brick's tree
    raw = m.LargeMotor("outB")
    raw.stop_action = "coast"
    raw.stop_action = "hold"          # leaves "holdt" in the file
    raw.run_to_rel_pos(position_sp=1080, speed_sp=1000)
    _settle(brick, raw)
    raw.run_to_rel_pos(position_sp=-90, speed_sp=1000)   # "-90" over "1080"
    _settle(brick, raw)
    assert raw.position == 990
    assert "holding" in raw.state


def test_blocked_turntable_is_a_clear_stall_and_motors_are_left_safe(brick):
    hw = brick.make_hardware()
    hw.flipper.run_to_position(85, 400, timeout_s=5)   # holding the cube
    brick.block_motor("outB")
    with pytest.raises(MotorStalled) as info:
        hw.table.run_to_position(270, 600, timeout_s=5)
    message = str(info.value)
    assert "table" in message and "outB" in message and "270" in message
    hw.close()
    brick.clock.sleep_s(0.1)
    for role in ("flipper", "table", "arm"):
        state = brick.motor_state(role)
        assert "running" not in state and "holding" not in state, (role, state)


def test_a_move_that_takes_too_long_times_out(brick):
    hw = brick.make_hardware()
    with pytest.raises(MotorStalled) as info:
        hw.table.run_to_position(3600, 100, timeout_s=1.0)
    assert "did not reach 3600" in str(info.value)
    brick.clock.sleep_s(0.1)
    assert "running" not in brick.motor_state("table")


def test_a_free_motor_never_stalls_when_homing(brick):
    hw = brick.make_hardware()
    with pytest.raises(MotorStalled) as info:
        hw.table.run_until_stalled(300, timeout_s=1.0)
    assert "no end stop" in str(info.value)


def test_stop_from_another_thread_ends_a_wait(brick):
    hw = brick.make_hardware()
    hw.table.start_to_position(10800, 300)
    timer = threading.Timer(0.05, hw.table.stop)
    timer.start()
    hw.table.wait_until_stopped(60)
    timer.join()
    assert hw.table.position_deg() < 10800


def test_missing_colour_sensor_names_sensor_and_port():
    with VirtualBrick(StillWorld(), ports(), missing=("in3",)) as brick:
        with pytest.raises(DeviceMissing) as info:
            brick.make_hardware()
    assert "colour sensor" in str(info.value) and "in3" in str(info.value)


def test_missing_motor_names_role_and_port():
    with VirtualBrick(StillWorld(), ports(), missing=("outC",)) as brick:
        with pytest.raises(DeviceMissing) as info:
            brick.make_hardware()
    assert "arm motor" in str(info.value) and "outC" in str(info.value)


def test_ultrasonic_sensor_is_detected_automatically():
    with VirtualBrick(StillWorld(distance_cm=12.5), ports(), proximity="us") as brick:
        hw = brick.make_hardware()
        assert hw.proximity.kind == "ultrasonic"
        assert hw.proximity.read_distance_cm() == pytest.approx(12.5)


def test_unplugged_sensor_mid_run_is_device_missing(brick):
    hw = brick.make_hardware()
    hw.color.read_rgb_raw()
    brick.unplug("in3")
    with pytest.raises(DeviceMissing) as info:
        hw.color.read_rgb_raw()
    assert "colour sensor on in3" in str(info.value)


def test_a_move_counts_as_moving_from_the_moment_it_is_started(brick):
    hw = brick.make_hardware()
    hw.table.start_to_position(540, 900)
    assert hw.table.is_moving()           # before the driver's state has caught up
    polls = 0
    while hw.table.is_moving():
        brick.clock.sleep_s(0.01)
        polls += 1
    assert hw.table.position_deg() == 540 and polls >= 50    # 0.6 s at 900 deg/s
    assert not hw.table.is_moving()


def test_a_stalled_motor_is_not_moving_and_its_wait_says_why(brick):
    hw = brick.make_hardware()
    brick.block_motor("outB")
    hw.table.start_to_position(270, 900)
    while hw.table.is_moving():
        brick.clock.sleep_s(0.01)
    assert "stalled" in brick.motor_state("table")
    with pytest.raises(MotorStalled, match="stalled at 0 deg on the way to 270 deg"):
        hw.table.wait_until_stopped(5)
