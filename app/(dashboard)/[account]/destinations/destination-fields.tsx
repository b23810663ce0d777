"use client";

import { CodeWord } from "@/components/ui/code-word";
import { useWatch, type Control, type FieldValues, type Path } from "react-hook-form";
import { TextField } from "@/components/forms/fields";
import { Checkbox } from "@/components/ui/checkbox";
import { FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";
import { Switch } from "@/components/ui/switch";
import { EVENT_GROUPS, EVENT_TYPES, groupOf } from "@/lib/destinations/vocabulary";
import { useT } from "@/lib/i18n/client";

/** URL, description and event types: the new destination's page and the edit dialog share them. */
export function DestinationFields<T extends FieldValues>({
  control,
  prefix = "",
  mode,
}: {
  control: Control<T>;
  prefix?: string;
  mode: "test" | "live";
}) {
  const t = useT();
  const name = (field: string) => `${prefix}${field}` as Path<T>;
  const allTypes = useWatch({ control, name: name("allTypes") }) as boolean;
  return (
    <div className="space-y-5">
      <TextField
        control={control}
        name={name("url")}
        label={t("destinations.fields.url")}
        placeholder={mode === "live" ? "https://" : "https:// · http://localhost:8000/hook"}
        description={mode === "live" ? t("destinations.fields.urlLive") : t("destinations.fields.urlTest")}
        autoComplete="off"
        inputMode="url"
      />
      <TextField
        control={control}
        name={name("description")}
        label={t("destinations.fields.description")}
        placeholder={t("destinations.fields.descriptionPlaceholder")}
      />
      <FormField
        control={control}
        name={name("allTypes")}
        render={({ field }) => (
          <FormItem className="flex flex-row items-center justify-between gap-4 rounded-lg border px-3 py-2.5">
            <div className="space-y-0.5">
              <FormLabel>{t("destinations.fields.allTypes")}</FormLabel>
              <FormDescription>{t("destinations.fields.allTypesHint")}</FormDescription>
            </div>
            <FormControl>
              <Switch checked={field.value as boolean} onCheckedChange={field.onChange} />
            </FormControl>
          </FormItem>
        )}
      />
      {!allTypes && (
        <FormField
          control={control}
          name={name("eventTypes")}
          render={({ field }) => {
            const selected = (field.value ?? []) as string[];
            return (
              <FormItem>
                <FormLabel>{t("destinations.fields.eventTypes")}</FormLabel>
                <div className="grid gap-4 sm:grid-cols-2">
                  {EVENT_GROUPS.map((group) => (
                    <fieldset key={group} className="space-y-1.5">
                      <legend className="text-xs font-medium text-muted-foreground">{t(`destinations.groups.${group}`)}</legend>
                      {EVENT_TYPES.filter((type) => groupOf(type) === group).map((type) => (
                        <label key={type} className="flex items-start gap-2 text-sm">
                          <Checkbox
                            className="mt-0.5"
                            checked={selected.includes(type)}
                            onCheckedChange={(checked) =>
                              field.onChange(checked ? [...selected, type] : selected.filter((v) => v !== type))
                            }
                          />
                          <span>
                            <CodeWord group="outgoingEvent" code={type} />
                            <span className="block font-mono text-xs text-muted-foreground" data-raw={type}>
                              {type}
                            </span>
                          </span>
                        </label>
                      ))}
                    </fieldset>
                  ))}
                </div>
                <FormMessage />
              </FormItem>
            );
          }}
        />
      )}
    </div>
  );
}
