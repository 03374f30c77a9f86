import { Form, useNavigation, type FormProps } from "@remix-run/react";
import { forwardRef, useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from "react";
import { useRootData } from "~/root";
import { Notice } from "~/components/notice";

/** A Remix form that carries the session's CSRF token, so cookie-authenticated writes pass the check. */
export const AppForm = forwardRef<HTMLFormElement, FormProps>(function AppForm({ children, ...props }, ref) {
  const csrfToken = useRootData()?.csrfToken;
  return (
    <Form {...props} ref={ref}>
      {csrfToken ? <input type="hidden" name="_csrf" value={csrfToken} /> : null}
      {children}
    </Form>
  );
});

interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  name: string;
  errors?: string[];
  hint?: ReactNode;
}

/** A labelled input whose errors are announced and tied to it with aria-describedby. */
export function Field({ label, name, errors, hint, ...input }: FieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const invalid = Boolean(errors?.length);
  const describedBy = [invalid ? errorId : null, hint ? hintId : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      <input
        id={id}
        name={name}
        className="input"
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        {...input}
      />
      {hint ? (
        <p id={hintId} className="text-xs text-slate-500 dark:text-slate-400">
          {hint}
        </p>
      ) : null}
      <FieldErrors id={errorId} errors={errors} />
    </div>
  );
}

interface SelectFieldProps extends SelectHTMLAttributes<HTMLSelectElement> {
  label: string;
  name: string;
  errors?: string[];
  options: { value: string; label: string }[];
  placeholder: string;
}

export function SelectField({ label, name, errors, options, placeholder, ...select }: SelectFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const invalid = Boolean(errors?.length);
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      <select
        id={id}
        name={name}
        className="input"
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? errorId : undefined}
        {...select}
      >
        <option value="">{placeholder}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <FieldErrors id={errorId} errors={errors} />
    </div>
  );
}

function FieldErrors({ id, errors }: { id: string; errors?: string[] }) {
  if (!errors?.length) return null;
  return (
    <p id={id} className="text-sm text-red-600 dark:text-red-400" role="alert">
      {errors.join(" ")}
    </p>
  );
}

export function SubmitButton({
  children,
  pendingText,
  name,
  value,
  className = "btn-primary",
}: {
  children: ReactNode;
  pendingText: string;
  name?: string;
  value?: string;
  className?: string;
}) {
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && (name === undefined || navigation.formData?.get(name) === value);
  return (
    <button type="submit" className={className} disabled={pending} name={name} value={value}>
      {pending ? pendingText : children}
    </button>
  );
}

export { Notice } from "~/components/notice";

type Result = { ok: true; message?: string } | { ok: false; message: string; errors?: Record<string, string[]> };

/**
 * A form's answer above the form: `saved` (or the server's text) when it worked; when it did not, the server's
 * message unless a field already says it, so that a refusal of one field is not written twice.
 */
export function FormNotice({ result, saved }: { result: Result | undefined; saved?: string }) {
  if (!result) return null;
  if (result.ok) return (saved ?? result.message) ? <Notice tone="success">{saved ?? result.message}</Notice> : null;
  if (Object.values(result.errors ?? {}).some((messages) => messages.includes(result.message))) return null;
  return <Notice tone="error">{result.message}</Notice>;
}
