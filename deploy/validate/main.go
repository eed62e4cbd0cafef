// Command validate checks the project's deployment files offline, strictly, against the Go API types:
//
//	validate k8s FILE...     every YAML document in the files (kustomize output, the k6 TestRun set)
//	validate compose FILE    a Compose file, against the Compose specification's schema
//	validate rules FILE      prints the PrometheusRule documents of FILE as a Prometheus rules file (for promtool)
//	validate dashboard FILE  prints a Grafana dashboard's queries as a Prometheus rules file (for promtool)
//
// Kubernetes documents are decoded into the official types of k8s.io/api for their apiVersion and kind;
// a field the type does not have, a field spelled in the wrong case, a duplicated key or a value of the
// wrong type is an error, as is an apiVersion/kind this program does not know. The k6-operator's TestRun
// is decoded into a hand-written struct (testrun.go), because the operator's Go module is not available
// from the module proxy here. On top of the schema, a few cross-document checks catch what a schema
// cannot: references to ConfigMaps, Secrets and Deployments that are not in the set, selectors that
// select nothing, images left at the base's placeholder name.
package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/compose-spec/compose-go/v2/cli"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"
)

// placeholderImage is the image name the kustomize base uses; every overlay must replace it.
const placeholderImage = "concurrency-lab-app"

// maxConfigMapBytes is the API server's limit on a ConfigMap's or Secret's data.
const maxConfigMapBytes = 1 << 20

type gvk struct{ apiVersion, kind string }

// newObject returns an empty typed object for the apiVersion/kind, or nil if it is not known.
func newObject(k gvk) any {
	switch k {
	case gvk{"v1", "Namespace"}:
		return &corev1.Namespace{}
	case gvk{"v1", "ConfigMap"}:
		return &corev1.ConfigMap{}
	case gvk{"v1", "Secret"}:
		return &corev1.Secret{}
	case gvk{"v1", "Service"}:
		return &corev1.Service{}
	case gvk{"v1", "ServiceAccount"}:
		return &corev1.ServiceAccount{}
	case gvk{"apps/v1", "Deployment"}:
		return &appsv1.Deployment{}
	case gvk{"apps/v1", "StatefulSet"}:
		return &appsv1.StatefulSet{}
	case gvk{"batch/v1", "Job"}:
		return &batchv1.Job{}
	case gvk{"autoscaling/v2", "HorizontalPodAutoscaler"}:
		return &autoscalingv2.HorizontalPodAutoscaler{}
	case gvk{"k6.io/v1alpha1", "TestRun"}:
		return &TestRun{}
	case gvk{"monitoring.coreos.com/v1", "ServiceMonitor"}:
		return &monitoringv1.ServiceMonitor{}
	case gvk{"monitoring.coreos.com/v1", "PrometheusRule"}:
		return &monitoringv1.PrometheusRule{}
	}
	return nil
}

type document struct {
	source string // file:index
	kind   gvk
	name   string
	obj    any
}

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: validate k8s FILE... | compose FILE | rules FILE | dashboard FILE")
		os.Exit(2)
	}
	var errs []error
	switch os.Args[1] {
	case "k8s":
		errs = validateKubernetes(os.Args[2:])
	case "compose":
		for _, f := range os.Args[2:] {
			errs = append(errs, validateCompose(f)...)
		}
	case "rules":
		if err := rulesFile(os.Args[2]); err != nil {
			errs = append(errs, err)
		}
	case "dashboard":
		if err := dashboardRules(os.Args[2]); err != nil {
			errs = append(errs, err)
		}
	default:
		fmt.Fprintf(os.Stderr, "unknown mode %q\n", os.Args[1])
		os.Exit(2)
	}
	for _, err := range errs {
		fmt.Fprintln(os.Stderr, "ERROR:", err)
	}
	if len(errs) > 0 {
		os.Exit(1)
	}
}

func validateKubernetes(files []string) []error {
	var errs []error
	for _, file := range files {
		docs, err := decodeFile(file)
		errs = append(errs, err...)
		errs = append(errs, crossCheck(docs)...)
		if len(err) == 0 {
			fmt.Printf("ok   %s: %d documents (%s)\n", file, len(docs), summary(docs))
		}
	}
	return errs
}

func decodeFile(file string) ([]document, []error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, []error{err}
	}
	defer f.Close()
	reader := utilyaml.NewYAMLReader(bufio.NewReader(f))
	var docs []document
	var errs []error
	for i := 0; ; i++ {
		raw, err := reader.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return docs, append(errs, fmt.Errorf("%s: %w", file, err))
		}
		if len(bytes.TrimSpace(stripComments(raw))) == 0 {
			continue
		}
		source := fmt.Sprintf("%s#%d", file, i)
		doc, err := decodeDocument(source, raw)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		docs = append(docs, doc)
	}
	if len(docs) == 0 && len(errs) == 0 {
		errs = append(errs, fmt.Errorf("%s: no documents", file))
	}
	return docs, errs
}

func stripComments(raw []byte) []byte {
	var out bytes.Buffer
	for _, line := range strings.Split(string(raw), "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "#") {
			out.WriteString(line)
			out.WriteByte('\n')
		}
	}
	return out.Bytes()
}

func decodeDocument(source string, raw []byte) (document, error) {
	// Strict YAML to JSON: duplicate keys are errors.
	js, err := yaml.YAMLToJSONStrict(raw)
	if err != nil {
		return document{}, fmt.Errorf("%s: %w", source, err)
	}
	var meta metav1.TypeMeta
	if err := kjson.UnmarshalCaseSensitivePreserveInts(js, &meta); err != nil {
		return document{}, fmt.Errorf("%s: %w", source, err)
	}
	k := gvk{meta.APIVersion, meta.Kind}
	obj := newObject(k)
	if obj == nil {
		return document{}, fmt.Errorf("%s: apiVersion %q kind %q is not a type this validator knows", source, k.apiVersion, k.kind)
	}
	// Case-sensitive field names, unknown and duplicate fields reported: the API server's strict mode.
	strictErrs, err := kjson.UnmarshalStrict(js, obj)
	if err != nil {
		return document{}, fmt.Errorf("%s (%s): %w", source, k.kind, err)
	}
	if len(strictErrs) > 0 {
		msgs := make([]string, len(strictErrs))
		for i, e := range strictErrs {
			msgs[i] = e.Error()
		}
		return document{}, fmt.Errorf("%s (%s): %s", source, k.kind, strings.Join(msgs, "; "))
	}
	name := ""
	if o, ok := obj.(metav1.Object); ok {
		name = o.GetName()
	}
	if name == "" {
		return document{}, fmt.Errorf("%s (%s): metadata.name is empty", source, k.kind)
	}
	return document{source: source, kind: k, name: name, obj: obj}, nil
}

func summary(docs []document) string {
	counts := map[string]int{}
	var order []string
	for _, d := range docs {
		if counts[d.kind.kind] == 0 {
			order = append(order, d.kind.kind)
		}
		counts[d.kind.kind]++
	}
	parts := make([]string, len(order))
	for i, k := range order {
		parts[i] = fmt.Sprintf("%d %s", counts[k], k)
	}
	return strings.Join(parts, ", ")
}

// crossCheck verifies references between the documents of one rendered set.
func crossCheck(docs []document) []error {
	var errs []error
	configMaps := map[string]*corev1.ConfigMap{}
	secrets := map[string]*corev1.Secret{}
	deployments := map[string]bool{}
	services := map[string]map[string]string{} // name -> labels
	var podLabels []map[string]string
	for _, d := range docs {
		switch o := d.obj.(type) {
		case *corev1.ConfigMap:
			configMaps[o.Name] = o
			if n := configMapSize(o); n > maxConfigMapBytes {
				errs = append(errs, fmt.Errorf("%s: ConfigMap %s holds %d bytes, over the 1 MiB limit", d.source, o.Name, n))
			}
		case *corev1.Secret:
			secrets[o.Name] = o
		case *appsv1.Deployment:
			deployments[o.Name] = true
			podLabels = append(podLabels, o.Spec.Template.Labels)
		case *appsv1.StatefulSet:
			podLabels = append(podLabels, o.Spec.Template.Labels)
		case *corev1.Service:
			services[o.Name] = o.Labels
		}
	}
	for _, d := range docs {
		switch o := d.obj.(type) {
		case *appsv1.Deployment:
			errs = append(errs, checkWorkload(d, o.Spec.Selector, o.Spec.Template, configMaps, secrets)...)
		case *appsv1.StatefulSet:
			errs = append(errs, checkWorkload(d, o.Spec.Selector, o.Spec.Template, configMaps, secrets)...)
		case *corev1.Service:
			if len(o.Spec.Selector) > 0 && !anySelected(o.Spec.Selector, podLabels) {
				errs = append(errs, fmt.Errorf("%s: Service %s selects no pod template in this set", d.source, o.Name))
			}
		case *autoscalingv2.HorizontalPodAutoscaler:
			ref := o.Spec.ScaleTargetRef
			if ref.Kind != "Deployment" || !deployments[ref.Name] {
				errs = append(errs, fmt.Errorf("%s: HPA %s targets %s %s, which is not in this set", d.source, o.Name, ref.Kind, ref.Name))
			}
			if o.Spec.MinReplicas != nil && *o.Spec.MinReplicas > o.Spec.MaxReplicas {
				errs = append(errs, fmt.Errorf("%s: HPA %s: minReplicas > maxReplicas", d.source, o.Name))
			}
		case *TestRun:
			errs = append(errs, checkTestRun(d, o, configMaps, secrets)...)
		case *monitoringv1.ServiceMonitor:
			errs = append(errs, checkServiceMonitor(d, o, services)...)
		}
	}
	return errs
}

func configMapSize(c *corev1.ConfigMap) int {
	n := 0
	for k, v := range c.Data {
		n += len(k) + len(v)
	}
	for k, v := range c.BinaryData {
		n += len(k) + len(v)
	}
	return n
}

func anySelected(selector map[string]string, candidates []map[string]string) bool {
	for _, labels := range candidates {
		if matches(selector, labels) {
			return true
		}
	}
	return false
}

func matches(selector, labels map[string]string) bool {
	for k, v := range selector {
		if labels[k] != v {
			return false
		}
	}
	return true
}

func checkWorkload(d document, selector *metav1.LabelSelector, tpl corev1.PodTemplateSpec,
	configMaps map[string]*corev1.ConfigMap, secrets map[string]*corev1.Secret) []error {
	var errs []error
	fail := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s (%s %s): %s", d.source, d.kind.kind, d.name, fmt.Sprintf(format, args...)))
	}
	if selector == nil || len(selector.MatchLabels) == 0 {
		fail("no selector.matchLabels")
	} else if !matches(selector.MatchLabels, tpl.Labels) {
		fail("selector does not match the pod template's labels")
	}
	if len(tpl.Spec.Containers) == 0 {
		fail("no containers")
	}
	for _, c := range tpl.Spec.Containers {
		if c.Image == "" || strings.HasPrefix(c.Image, placeholderImage) {
			fail("container %s: image %q (the base's placeholder must be replaced by an overlay)", c.Name, c.Image)
		}
		if c.Resources.Limits.Memory().IsZero() || c.Resources.Requests.Cpu().IsZero() {
			fail("container %s: needs a memory limit and a CPU request", c.Name)
		}
		if c.Resources.Requests.Memory().Cmp(*c.Resources.Limits.Memory()) > 0 {
			fail("container %s: memory request above its limit", c.Name)
		}
		for _, ef := range c.EnvFrom {
			if ef.ConfigMapRef != nil && configMaps[ef.ConfigMapRef.Name] == nil {
				fail("container %s: envFrom ConfigMap %s is not in this set", c.Name, ef.ConfigMapRef.Name)
			}
			if ef.SecretRef != nil && secrets[ef.SecretRef.Name] == nil {
				fail("container %s: envFrom Secret %s is not in this set", c.Name, ef.SecretRef.Name)
			}
		}
		for _, e := range c.Env {
			if e.ValueFrom == nil {
				continue
			}
			if r := e.ValueFrom.SecretKeyRef; r != nil && !secretHasKey(secrets[r.Name], r.Key) {
				fail("container %s: env %s refers to Secret %s key %s, not in this set", c.Name, e.Name, r.Name, r.Key)
			}
			if r := e.ValueFrom.ConfigMapKeyRef; r != nil && (configMaps[r.Name] == nil || configMaps[r.Name].Data[r.Key] == "") {
				fail("container %s: env %s refers to ConfigMap %s key %s, not in this set", c.Name, e.Name, r.Name, r.Key)
			}
		}
		for _, m := range c.VolumeMounts {
			if !hasVolume(tpl.Spec.Volumes, m.Name) && !isClaimTemplate(d, m.Name) {
				fail("container %s: volumeMount %s has no volume", c.Name, m.Name)
			}
		}
		if loc := envValue(c, configMaps, "MP_JWT_VERIFY_PUBLICKEY_LOCATION"); strings.HasPrefix(loc, "/") && !mounted(c, loc) {
			fail("container %s: MP_JWT_VERIFY_PUBLICKEY_LOCATION %s is on no volumeMount", c.Name, loc)
		}
		if c.Lifecycle != nil && c.Lifecycle.PreStop != nil && c.Lifecycle.PreStop.Sleep != nil {
			grace := int64(30) // the API's default
			if tpl.Spec.TerminationGracePeriodSeconds != nil {
				grace = *tpl.Spec.TerminationGracePeriodSeconds
			}
			if c.Lifecycle.PreStop.Sleep.Seconds >= grace {
				fail("container %s: preStop sleep of %d s leaves nothing of terminationGracePeriodSeconds %d for the shutdown",
					c.Name, c.Lifecycle.PreStop.Sleep.Seconds, grace)
			}
		}
	}
	for _, v := range tpl.Spec.Volumes {
		if v.ConfigMap != nil && configMaps[v.ConfigMap.Name] == nil && !optional(v.ConfigMap.Optional) {
			fail("volume %s: ConfigMap %s is not in this set", v.Name, v.ConfigMap.Name)
		}
		if v.Secret != nil && secrets[v.Secret.SecretName] == nil && !optional(v.Secret.Optional) {
			fail("volume %s: Secret %s is not in this set", v.Name, v.Secret.SecretName)
		}
	}
	return errs
}

// envValue is the container's value for an environment variable given literally or by envFrom a ConfigMap
// (env wins over envFrom, as in the kubelet); "" when not set that way.
func envValue(c corev1.Container, configMaps map[string]*corev1.ConfigMap, name string) string {
	for _, e := range c.Env {
		if e.Name == name && e.ValueFrom == nil {
			return e.Value
		}
	}
	value := ""
	for _, ef := range c.EnvFrom {
		if ef.ConfigMapRef != nil && configMaps[ef.ConfigMapRef.Name] != nil {
			if v, ok := configMaps[ef.ConfigMapRef.Name].Data[name]; ok {
				value = v
			}
		}
	}
	return value
}

func mounted(c corev1.Container, path string) bool {
	for _, m := range c.VolumeMounts {
		if strings.HasPrefix(path, strings.TrimSuffix(m.MountPath, "/")+"/") {
			return true
		}
	}
	return false
}

func secretHasKey(s *corev1.Secret, key string) bool {
	if s == nil {
		return false
	}
	_, inData := s.Data[key]
	_, inString := s.StringData[key]
	return inData || inString
}

func hasVolume(volumes []corev1.Volume, name string) bool {
	for _, v := range volumes {
		if v.Name == name {
			return true
		}
	}
	return false
}

func isClaimTemplate(d document, name string) bool {
	if s, ok := d.obj.(*appsv1.StatefulSet); ok {
		for _, t := range s.Spec.VolumeClaimTemplates {
			if t.Name == name {
				return true
			}
		}
	}
	return false
}

func optional(b *bool) bool { return b != nil && *b }

func validateCompose(file string) []error {
	abs, err := filepath.Abs(file)
	if err != nil {
		return []error{err}
	}
	opts, err := cli.NewProjectOptions([]string{abs},
		cli.WithWorkingDirectory(filepath.Dir(abs)),
		cli.WithName("concurrency-lab"),
		// Validate the file as written: no .env file, no variables from this shell.
		cli.WithEnv([]string{}),
		cli.WithConsistency(true))
	if err != nil {
		return []error{fmt.Errorf("%s: %w", file, err)}
	}
	project, err := opts.LoadProject(context.Background())
	if err != nil {
		return []error{fmt.Errorf("%s: %w", file, err)}
	}
	fmt.Printf("ok   %s: compose project with services %s\n", file, strings.Join(project.ServiceNames(), ", "))
	return nil
}
