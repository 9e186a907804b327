import FormField from '@cloudscape-design/components/form-field';
import Select, { type SelectProps } from '@cloudscape-design/components/select';
import { pick } from '../lib/form-kit.js';

/**
 * A labelled choice among options read from the server (groups, storages, tracking servers) or fixed ones: the
 * FormField and Select every form repeats, with the value kept as the option's string (the form's state), the
 * server's error under it, and a spinner while the options load.
 */
export function SelectField(p: {
  label: string;
  description?: string;
  constraintText?: string;
  errorText?: string;
  testId: string;
  options: SelectProps.Option[];
  value: string;
  onChange(value: string): void;
  placeholder?: string;
  /** The options are still being read. */
  loading?: boolean;
  disabled?: boolean;
}) {
  return (
    <FormField
      label={p.label}
      description={p.description}
      constraintText={p.constraintText}
      errorText={p.errorText}
      data-testid={p.testId}
    >
      <Select
        selectedOption={pick(p.options, p.value)}
        options={p.options}
        onChange={({ detail }) => p.onChange(detail.selectedOption.value ?? '')}
        placeholder={p.placeholder}
        disabled={p.disabled}
        statusType={p.loading ? 'loading' : 'finished'}
      />
    </FormField>
  );
}
