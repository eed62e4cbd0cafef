package main

// HAND-WRITTEN SCHEMA, NOT THE OPERATOR'S CODE. The k6-operator's Go API module
// (github.com/grafana/k6-operator/api/v1alpha1) is refused by the Go module proxy reachable here, so this
// file declares the part of the TestRun (apiVersion k6.io/v1alpha1) specification that this project uses,
// with the field names and types of the operator's published CRD (TestRunSpec, K6Script, K6Configmap, Pod).
// Fields of the CRD that the project does not use are left out on purpose: the strict decoder then rejects
// them, so adding one means adding it here too, after checking it against the operator's documentation.
// Everything below the operator's own structs (env, resources, volumes, ...) is the official k8s.io/api type.

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestRun is k6.io/v1alpha1 TestRun: one distributed k6 test, split over Parallelism runner pods.
type TestRun struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              TestRunSpec `json:"spec"`
}

// TestRunSpec: the subset of the operator's spec used here.
type TestRunSpec struct {
	Script      TestRunScript `json:"script"`
	Parallelism int32         `json:"parallelism"`
	Separate    bool          `json:"separate,omitempty"`
	Arguments   string        `json:"arguments,omitempty"`
	Runner      TestRunPod    `json:"runner,omitempty"`
	Starter     TestRunPod    `json:"starter,omitempty"`
	Quiet       string        `json:"quiet,omitempty"`
	Cleanup     string        `json:"cleanup,omitempty"`
}

// TestRunScript: where the runners find the script. Only the ConfigMap source is used here.
type TestRunScript struct {
	ConfigMap *TestRunConfigMap `json:"configMap,omitempty"`
	LocalFile string            `json:"localFile,omitempty"`
}

// TestRunConfigMap names a ConfigMap (mounted at /test in the runners) and the script file in it.
type TestRunConfigMap struct {
	Name string `json:"name"`
	File string `json:"file,omitempty"`
}

// TestRunPod: the options of the runner (or starter) pods used here.
type TestRunPod struct {
	Image                    string                      `json:"image,omitempty"`
	ImagePullPolicy          corev1.PullPolicy           `json:"imagePullPolicy,omitempty"`
	Metadata                 TestRunPodMetadata          `json:"metadata,omitempty"`
	Env                      []corev1.EnvVar             `json:"env,omitempty"`
	EnvFrom                  []corev1.EnvFromSource      `json:"envFrom,omitempty"`
	Resources                corev1.ResourceRequirements `json:"resources,omitempty"`
	NodeSelector             map[string]string           `json:"nodeSelector,omitempty"`
	SecurityContext          corev1.PodSecurityContext   `json:"securityContext,omitempty"`
	ContainerSecurityContext corev1.SecurityContext      `json:"containerSecurityContext,omitempty"`
	Volumes                  []corev1.Volume             `json:"volumes,omitempty"`
	VolumeMounts             []corev1.VolumeMount        `json:"volumeMounts,omitempty"`
}

// TestRunPodMetadata: labels and annotations for the pods.
type TestRunPodMetadata struct {
	Labels      map[string]string `json:"labels,omitempty"`
	Annotations map[string]string `json:"annotations,omitempty"`
}

func checkTestRun(d document, t *TestRun, configMaps map[string]*corev1.ConfigMap, secrets map[string]*corev1.Secret) []error {
	var errs []error
	fail := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s (TestRun %s): %s", d.source, t.Name, fmt.Sprintf(format, args...)))
	}
	if t.Spec.Parallelism < 1 {
		fail("parallelism must be at least 1")
	}
	if t.Spec.Cleanup != "" && t.Spec.Cleanup != "post" {
		fail("cleanup must be empty or \"post\"")
	}
	cm := t.Spec.Script.ConfigMap
	if cm == nil || cm.Name == "" || cm.File == "" {
		fail("script.configMap.name and .file are required here")
		return errs
	}
	script := configMaps[cm.Name]
	if script == nil {
		fail("script ConfigMap %s is not in this set", cm.Name)
	} else if _, ok := script.Data[cm.File]; !ok {
		fail("script ConfigMap %s has no key %s", cm.Name, cm.File)
	}
	for _, v := range t.Spec.Runner.Volumes {
		if v.ConfigMap != nil && configMaps[v.ConfigMap.Name] == nil && !optional(v.ConfigMap.Optional) {
			fail("runner volume %s: ConfigMap %s is not in this set", v.Name, v.ConfigMap.Name)
		}
		if v.Secret != nil && secrets[v.Secret.SecretName] == nil && !optional(v.Secret.Optional) {
			fail("runner volume %s: Secret %s is not in this set", v.Name, v.Secret.SecretName)
		}
	}
	for _, m := range t.Spec.Runner.VolumeMounts {
		if !hasVolume(t.Spec.Runner.Volumes, m.Name) {
			fail("runner volumeMount %s has no volume", m.Name)
		}
	}
	return errs
}
