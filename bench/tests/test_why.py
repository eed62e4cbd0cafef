from benchlab.results import why


def test_worker_queue_names_starvation_with_the_figure():
    row = {"worker_queue_max": 412, "app_cpu_pct": 60, "k6_cpu_pct": 20}
    text = why.explain(row, cores=2)
    assert text.startswith("worker-pool starvation: up to 412 tasks queued")


def test_k6_cpu_is_named_when_the_load_generator_is_the_limit():
    text = why.explain({"k6_cpu_pct": 190, "app_cpu_pct": 100}, cores=2)
    assert text.startswith("the load generator was the limit: k6 used 190 % CPU")


def test_highest_score_first_and_others_listed():
    text = why.explain({"jdbc_awaiting_max": 3, "host_cpu_pct": 99}, cores=2)
    assert text.startswith("JDBC pool wait: up to 3")
    assert "also machine CPU" in text


def test_nothing_saturated_and_missing_values():
    assert why.explain({"app_cpu_pct": 30, "worker_queue_max": float("nan")}, cores=2).startswith(
        "nothing crossed its level")


def test_unanswered_sampler_with_idle_cpu_names_the_event_loop():
    text = why.explain({"metrics_missed_pct": 83, "app_cpu_pct": 9, "worker_queue_max": 0}, cores=2)
    assert text.startswith("event-loop delay: /lab/saturation, served on the event loop, missed 1.5 s in 83 %")


def test_unanswered_metrics_with_full_cpu_is_the_cpu():
    text = why.explain({"metrics_missed_pct": 83, "app_cpu_pct": 195}, cores=2)
    assert text.startswith("app CPU: 195 %")


def test_a_nearly_full_machine_is_named_with_its_largest_users():
    # article 003's report on two cores: the database takes most of the machine, no single process reaches 90 %
    row = {"host_cpu_pct": 91, "db_cpu_pct": 133, "k6_cpu_pct": 26, "app_cpu_pct": 18, "downstream_cpu_pct": 0}
    assert why.explain(row, cores=2) == ("the machine's CPUs were nearly full: 91 % of all cores "
                                         "(in % of one core: the database 133, k6 26, the app 18)")


def test_cpu_the_bench_does_not_watch_is_said():
    row = {"host_cpu_pct": 90, "app_cpu_pct": 60, "k6_cpu_pct": 20}
    assert why.explain(row, cores=2).endswith("(in % of one core: the app 60, k6 20; other processes about 100)")


def test_a_machine_at_80_percent_is_not_full():
    assert why.explain({"host_cpu_pct": 80, "app_cpu_pct": 100}, cores=2).startswith("nothing crossed its level")


def test_worker_queue_gives_the_aggregation_reason_only_where_requests_nest():
    aggregate = why.explain({"worker_queue_max": 40}, cores=2, branches_nest=True)
    mixed = why.explain({"worker_queue_max": 40}, cores=2)
    assert aggregate.endswith("(aggregations wait for branches that need worker threads too)")
    assert mixed == "worker-pool starvation: up to 40 tasks queued"


def test_rest_client_pool_wait_is_named_with_the_figure():
    # 1,024 connections at 1,000 users: about 1,500 calls in flight, the rest wait for a connection
    text = why.explain({"downstream_waiting_max": 476, "app_cpu_pct": 70, "host_cpu_pct": 88}, cores=2)
    assert text.startswith("REST client pool wait: up to 476 downstream calls waiting for a connection")
    assert "also machine CPU" in text


def test_the_cpu_budget_says_whether_a_rate_fits_in_the_machine():
    row = {"ok_rps": 1500.0, "app_cpu_pct": 66.0, "k6_cpu_pct": 63.0, "downstream_cpu_pct": 30.0, "db_cpu_pct": 0.0}
    assert why.cpu_budget(row, cores=2, rate=1667.0) == (
        "per request the app used 0.44 ms of CPU, k6 0.42 ms, the downstream service 0.20 ms (1.06 ms in all): "
        "1,667 requests/s would need 1.77 of the 2 cores (88%)")
    assert why.cpu_budget({"ok_rps": 0.0, "app_cpu_pct": 50.0}, cores=2, rate=100.0) == ""


def test_where_nothing_crossed_its_level_the_nearest_resource_is_named_with_its_share():
    row = {"host_cpu_pct": 80.4, "app_cpu_pct": 66.3, "k6_cpu_pct": 70.5, "downstream_cpu_pct": 25.6}
    assert why.explain(row, cores=2) == ("nothing crossed its level; nearest: machine CPU, 94 % of it (in % of one "
                                         "core: k6 70, the app 66, the downstream service 26)")
    assert why.brief(row, cores=2) == "nothing over its level; nearest: machine CPU, 94 %"


def test_in_brief_the_first_resource_over_its_level_with_its_figure():
    assert why.brief({"worker_queue_max": 284, "host_cpu_pct": 99}, cores=2) == "worker pool starved: 284 queued"
    assert why.brief({"app_cpu_pct": 48, "app_cpus": 0.5}, cores=2) == "app CPU 96 % of its budget"
    assert why.brief({"gc_share_pct": 16.04}, cores=2) == "GC pauses 16.0 % of the run"


def test_a_knee_k6_or_the_machine_set_is_the_rigs_ceiling_and_the_apps_own_limits_are_not():
    assert why.ceiling({"k6_cpu_pct": 190, "app_cpu_pct": 40}, cores=2) == "k6's ceiling"
    assert why.ceiling({"host_cpu_pct": 95, "app_cpu_pct": 40, "app_cpus": 0.5}, cores=2) == "the machine's ceiling"
    # the app's budget, a queue or GC first: the model's own knee, whatever the machine did beside it
    assert why.ceiling({"app_cpu_pct": 48, "app_cpus": 0.5, "host_cpu_pct": 86}, cores=2) is None
    assert why.ceiling({"worker_queue_max": 3, "host_cpu_pct": 95}, cores=2) is None
    assert why.ceiling({"gc_share_pct": 9.0, "host_cpu_pct": 86}, cores=2) is None
    assert why.ceiling({"host_cpu_pct": 80}, cores=2) is None  # nearest is no limit


def test_with_a_cpu_split_k6_and_the_rigs_cpus_are_judged_against_the_rigs_cpus_not_the_machines():
    # k6 at 92 % of its one CPU is its limit; on a machine of two cores without the split it would be half its level
    row = {"k6_cpu_pct": 92, "app_cpu_pct": 30, "app_cpus": 0.5, "rig_cpus": 1, "rig_cpu_pct": 80}
    assert why.explain(row, cores=2).startswith("the load generator was the limit: k6 used 92 % CPU")
    assert why.ceiling(row, cores=2) == "k6's ceiling"
    assert why.ceiling(dict(row, rig_cpus=None), cores=2) is None
    # k6 and the downstream service together fill the rig's CPU: the rig's ceiling, with who used it
    full = {"k6_cpu_pct": 70, "downstream_cpu_pct": 20, "app_cpu_pct": 30, "app_cpus": 0.5, "rig_cpus": 1,
            "rig_cpu_pct": 93, "other_cpu_pct": 0}
    assert why.ceiling(full, cores=2) == "the rig's ceiling"
    assert "(in % of one core: k6 70, the app 30, the downstream service 20)" in why.explain(full, cores=2)
    # the app at its budget on its own CPU, the rig with room: the app's own limit, not a ceiling
    app = {"k6_cpu_pct": 55, "db_cpu_pct": 20, "app_cpu_pct": 48, "app_cpus": 0.5, "rig_cpus": 1, "rig_cpu_pct": 60,
           "app_set_cpus": 1, "app_set_cpu_pct": 70}
    assert why.brief(app, cores=2) == "app CPU 96 % of its budget" and why.ceiling(app, cores=2) is None
    # the database fills the rest of the app's CPU: a limit of the app and its database, not the rig's
    shared = dict(app, app_cpu_pct=40, db_cpu_pct=50, app_set_cpu_pct=92)
    assert why.brief(shared, cores=2) == "app and database CPUs 92 %" and why.ceiling(shared, cores=2) is None


def test_a_pod_that_broke_below_its_budget_with_its_periods_often_throttled_names_the_quotas_period():
    # 0.5 CPU at 62 % of its budget, a third of its 100 ms periods throttled: the knee came at half its CPU
    row = {"app_cpus": 0.5, "app_cpu_pct": 31, "throttled_pct": 34, "throttled_ms_per_s": 12.4, "db_cpu_pct": 20}
    assert why.explain(row, cores=2) == ("the quota's period: 34 % of periods throttled, 12 ms/s, with the app's CPU "
                                         "at 62 % of its 0.5 CPU budget")
    assert why.brief(row, cores=2) == "quota's period: 34 % throttled"


def test_throttling_is_not_the_reason_where_the_app_used_its_budget_or_had_none_or_was_seldom_throttled():
    spent = {"app_cpus": 0.5, "app_cpu_pct": 47, "throttled_pct": 80, "throttled_ms_per_s": 40}
    assert why.explain(spent, cores=2).startswith("app CPU: 47 % of one core, 94 % of its 0.5 CPU budget")
    unbudgeted = {"app_cpu_pct": 60, "throttled_pct": 80}
    assert "quota" not in why.explain(unbudgeted, cores=2)
    seldom = {"app_cpus": 0.5, "app_cpu_pct": 31, "throttled_pct": 4, "throttled_ms_per_s": 1}
    assert why.explain(seldom, cores=2).startswith("nothing crossed its level; nearest: app CPU")
