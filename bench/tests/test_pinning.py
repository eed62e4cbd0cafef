from benchlab.run.provision import pinning


def test_not_enough_cores_on_two():
    assert pinning.split_cores(2) is None
    assert "needs at least 4 cores, this machine has 2" in pinning.describe(True, 2)


def test_split_gives_k6_a_quarter():
    assert pinning.split_cores(8) == ("6-7", "0-5")
    assert pinning.split_cores(4) == ("3-3", "0-2")
