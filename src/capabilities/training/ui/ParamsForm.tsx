import Checkbox from '@cloudscape-design/components/checkbox';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import Select from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Textarea from '@cloudscape-design/components/textarea';
import type { ReactNode } from 'react';
import type { FormFieldSpec, FormValues } from './schema-form.js';

interface Props {
  fields: readonly FormFieldSpec[];
  values: FormValues;
  onChange(name: string, value: string | boolean): void;
  /** The problem to show under a field (the form's own check, or the server's 400/422 naming params.<field>). */
  errorOf(name: string): string | undefined;
  /** An input of its own for some parameters (the model folder is picked from the downloads); undefined: the kind's input. */
  inputFor?(name: string, value: string, onChange: (value: string) => void): ReactNode | undefined;
}

/** One input per recipe parameter, drawn from the kind the schema gives it; labels are the parameter names as the API takes them. */
export function ParamsForm({ fields, values, onChange, errorOf, inputFor }: Props) {
  return (
    <SpaceBetween size="m">
      {fields.map((f) => {
        const value = values.get(f.name) ?? f.initial;
        const common = {
          label: f.name,
          description: f.description,
          constraintText: f.constraint,
          errorText: errorOf(f.name),
          'data-testid': `training-param-${f.name}`,
        };
        const own = f.kind === 'string' ? inputFor?.(f.name, String(value), (v) => onChange(f.name, v)) : undefined;
        if (own)
          return (
            <FormField key={f.name} {...common}>
              {own}
            </FormField>
          );
        if (f.kind === 'boolean')
          return (
            <FormField key={f.name} {...common}>
              <Checkbox checked={value === true} onChange={({ detail }) => onChange(f.name, detail.checked)}>
                {f.name}
              </Checkbox>
            </FormField>
          );
        if (f.kind === 'enum')
          return (
            <FormField key={f.name} {...common}>
              <Select
                selectedOption={value ? { value: String(value), label: String(value) } : null}
                options={(f.options ?? []).map((o) => ({ value: o, label: o }))}
                onChange={({ detail }) => onChange(f.name, detail.selectedOption.value ?? '')}
                placeholder="Choose"
              />
            </FormField>
          );
        if (f.kind === 'string-list' || f.kind === 'json')
          return (
            <FormField key={f.name} {...common}>
              <Textarea value={String(value)} rows={2} onChange={({ detail }) => onChange(f.name, detail.value)} />
            </FormField>
          );
        return (
          <FormField key={f.name} {...common}>
            <Input
              value={String(value)}
              inputMode={f.kind === 'string' ? 'text' : 'decimal'}
              onChange={({ detail }) => onChange(f.name, detail.value)}
            />
          </FormField>
        );
      })}
    </SpaceBetween>
  );
}
