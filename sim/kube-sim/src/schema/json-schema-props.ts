/**
 * The subset of apiextensions.k8s.io/v1 JSONSchemaProps that CRDs use. Keys kube-apiserver refuses in
 * structural schemas ($ref, patternProperties, …) are not typed here; the CRD validator still looks for
 * them on the raw object so that they are refused rather than silently ignored.
 */
export interface JSONSchemaProps {
  type?: string;
  format?: string;
  description?: string;
  title?: string;
  properties?: Record<string, JSONSchemaProps>;
  items?: JSONSchemaProps;
  additionalProperties?: JSONSchemaProps | boolean;
  required?: string[];
  enum?: unknown[];
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  minProperties?: number;
  maxProperties?: number;
  default?: unknown;
  example?: unknown;
  nullable?: boolean;
  anyOf?: JSONSchemaProps[];
  allOf?: JSONSchemaProps[];
  oneOf?: JSONSchemaProps[];
  not?: JSONSchemaProps;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: string;
  'x-kubernetes-validations'?: unknown[];
}
