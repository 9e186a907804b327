/** The REST path of the doctor capability (issue 30): one GET — a readiness check reads and never acts. */
export const DOCTOR_PATHS = {
  /** GET: the readiness of the account and Region (?region=, ?instanceTypes=, ?principalArn=). */
  check: '/api/v1/doctor',
} as const;
