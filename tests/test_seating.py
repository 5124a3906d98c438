"""Turn order: directions, skips and players out (referee/games/seating.py)."""

from referee.games.seating import Seating


def test_next_player_in_each_direction():
    seats = Seating(4)
    assert [seats.after(0), seats.after(3), seats.after(0, 2)] == [1, 0, 2]
    seats.reverse()
    assert [seats.after(0), seats.after(1), seats.after(0, 3)] == [3, 0, 1]


def test_seats_out_are_passed_over():
    seats = Seating(4)
    seats.out |= {1, 2}
    assert list(seats.around(0)) == [3]
    assert seats.after(0) == 3 and seats.after(3) == 0
    seats.out |= {3}
    assert seats.after(0) == 0


def test_neighbours_do_not_depend_on_direction():
    seats = Seating(3, direction=-1)
    assert seats.neighbours(0) == (1, 2)


def test_first_seat_in_turn_order():
    seats = Seating(4)
    assert [seats.first(2), seats.first(2, skip={2, 3})] == [2, 0]
    seats.out |= {2, 0}
    assert [seats.first(2), seats.first(1), seats.first(1, skip={1, 3})] == [3, 1, None]
    seats.reverse()
    assert seats.first(0) == 3
