"use client";

import type { ComponentProps, ReactNode } from "react";
import type { Control, ControllerRenderProps, FieldPath, FieldValues } from "react-hook-form";
import { FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";
import { DatePicker } from "@/components/ui/date-picker";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";

/** `O`: what the form's resolver turns the values into (the values themselves unless its schema transforms them). */
type BaseProps<T extends FieldValues, O = T> = {
  control: Control<T, unknown, O>;
  name: FieldPath<T>;
  label: ReactNode;
  description?: ReactNode;
  className?: string;
};

/** The frame every field shares: its label, the control, an optional hint, and its error under it. */
function LabelledField<T extends FieldValues, O = T>({
  control,
  name,
  label,
  description,
  className,
  children,
}: BaseProps<T, O> & { children: (field: ControllerRenderProps<T, FieldPath<T>>) => ReactNode }) {
  return (
    <FormField
      control={control}
      name={name}
      render={({ field }) => (
        <FormItem className={className}>
          <FormLabel>{label}</FormLabel>
          {children(field)}
          {description && <FormDescription>{description}</FormDescription>}
          <FormMessage />
        </FormItem>
      )}
    />
  );
}

/** A labelled input wired to react-hook-form, with its error shown under the field. */
export function TextField<T extends FieldValues, O = T>({
  control,
  name,
  label,
  description,
  className,
  transform,
  ...inputProps
}: BaseProps<T, O> & Omit<ComponentProps<typeof Input>, "name" | "defaultValue"> & { transform?: (value: string) => string }) {
  return (
    <LabelledField control={control} name={name} label={label} description={description} className={className}>
      {(field) => (
        <FormControl>
          <Input
            {...inputProps}
            {...field}
            value={field.value ?? ""}
            onChange={(event) => field.onChange(transform ? transform(event.target.value) : event.target.value)}
          />
        </FormControl>
      )}
    </LabelledField>
  );
}

export function SelectField<T extends FieldValues, O = T>({
  control,
  name,
  label,
  description,
  className,
  options,
  placeholder,
}: BaseProps<T, O> & { options: { value: string; label: ReactNode }[]; placeholder?: string }) {
  return (
    <LabelledField control={control} name={name} label={label} description={description} className={className}>
      {(field) => (
        <FormControl>
          <Select
            value={field.value ?? ""}
            onValueChange={field.onChange}
            options={options}
            placeholder={placeholder}
            className="w-full"
            onBlur={field.onBlur}
            ref={field.ref}
          />
        </FormControl>
      )}
    </LabelledField>
  );
}

/** A calendar date (YYYY-MM-DD) typed in the console's format or picked on its calendar. */
export function DateField<T extends FieldValues, O = T>({
  control,
  name,
  label,
  description,
  className,
  min,
}: BaseProps<T, O> & { min?: string }) {
  return (
    <LabelledField control={control} name={name} label={label} description={description} className={className}>
      {(field) => (
        <FormControl>
          <DatePicker
            value={field.value ?? ""}
            onChange={field.onChange}
            onBlur={field.onBlur}
            name={field.name}
            ref={field.ref}
            min={min}
          />
        </FormControl>
      )}
    </LabelledField>
  );
}
