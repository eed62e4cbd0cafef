package main

// The monitoring files: the Prometheus Operator's ServiceMonitor and PrometheusRule, decoded strictly into the
// operator's own Go types, and their PromQL handed to promtool. A PrometheusRule's spec is a Prometheus rules file
// (groups of rules); the dashboard's queries are written out as recording rules of such a file, with Grafana's
// variables replaced by values, so that promtool parses every expression a panel would run.

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/yaml"
)

// grafanaVariables: what Grafana substitutes into a query before it runs; promtool sees a value of the same kind.
var grafanaVariables = map[string]string{
	"$__rate_interval": "1m",
	"$__interval":      "15s",
	"$__range":         "5m",
}

var dashboardVariable = regexp.MustCompile(`\$\{?([A-Za-z_][A-Za-z0-9_]*)(:[a-z]+)?\}?`)

func checkServiceMonitor(d document, s *monitoringv1.ServiceMonitor, services map[string]map[string]string) []error {
	var errs []error
	if len(s.Spec.Endpoints) == 0 {
		errs = append(errs, fmt.Errorf("%s (ServiceMonitor %s): no endpoints", d.source, s.Name))
	}
	for _, e := range s.Spec.Endpoints {
		if e.Port == "" {
			errs = append(errs, fmt.Errorf("%s (ServiceMonitor %s): an endpoint without a named port", d.source, s.Name))
		}
	}
	if !anySelected(s.Spec.Selector.MatchLabels, mapValues(services)) {
		errs = append(errs, fmt.Errorf("%s: ServiceMonitor %s selects no Service in this set", d.source, s.Name))
	}
	return errs
}

func mapValues(m map[string]map[string]string) []map[string]string {
	out := make([]map[string]string, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

// rulesFile prints the spec of the PrometheusRule documents in file: a Prometheus rules file.
func rulesFile(file string) error {
	docs, errs := decodeFile(file)
	if len(errs) > 0 {
		return errs[0]
	}
	spec := monitoringv1.PrometheusRuleSpec{}
	for _, d := range docs {
		if r, ok := d.obj.(*monitoringv1.PrometheusRule); ok {
			spec.Groups = append(spec.Groups, r.Spec.Groups...)
		}
	}
	if len(spec.Groups) == 0 {
		return fmt.Errorf("%s: no PrometheusRule", file)
	}
	out, err := yaml.Marshal(spec)
	if err != nil {
		return err
	}
	_, err = os.Stdout.Write(out)
	return err
}

type grafanaDashboard struct {
	Panels []struct {
		Title   string `json:"title"`
		Targets []struct {
			Expr string `json:"expr"`
		} `json:"targets"`
	} `json:"panels"`
}

// dashboardRules prints every query of a Grafana dashboard as a recording rule, variables replaced.
func dashboardRules(file string) error {
	raw, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	var dash grafanaDashboard
	if err := json.Unmarshal(raw, &dash); err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	group := monitoringv1.RuleGroup{Name: "dashboard"}
	unknown := map[string]bool{}
	for i, p := range dash.Panels {
		for j, t := range p.Targets {
			if strings.TrimSpace(t.Expr) == "" {
				return fmt.Errorf("%s: panel %q has an empty query", file, p.Title)
			}
			expr := t.Expr
			for name, value := range grafanaVariables {
				expr = strings.ReplaceAll(expr, name, value)
			}
			expr = dashboardVariable.ReplaceAllStringFunc(expr, func(v string) string {
				unknown[v] = true
				return "x"
			})
			group.Rules = append(group.Rules, monitoringv1.Rule{
				Record: fmt.Sprintf("dashboard:panel%d_query%d", i, j),
				Expr:   intstr.FromString(expr),
			})
		}
	}
	if len(group.Rules) == 0 {
		return fmt.Errorf("%s: no queries", file)
	}
	if len(unknown) > 0 {
		names := make([]string, 0, len(unknown))
		for v := range unknown {
			names = append(names, v)
		}
		sort.Strings(names)
		fmt.Fprintf(os.Stderr, "dashboard variables given the value \"x\" for the check: %s\n", strings.Join(names, " "))
	}
	out, err := yaml.Marshal(monitoringv1.PrometheusRuleSpec{Groups: []monitoringv1.RuleGroup{group}})
	if err != nil {
		return err
	}
	_, err = os.Stdout.Write(out)
	return err
}
