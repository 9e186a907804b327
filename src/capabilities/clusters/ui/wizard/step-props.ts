import type { FieldErrors, WizardForm } from './form.js';

export interface StepProps {
  form: WizardForm;
  update(patch: Partial<WizardForm>): void;
  /** Errors to show (only after the user tried to leave the step). */
  errors: FieldErrors;
}
