// The person's name and picture (an http(s) image URL), as members and invitations show them.
import { useState } from "react";
import { useNotify } from "react-admin";
import { Avatar, Box, Button, TextField } from "@mui/material";
import { session, type SessionUser } from "../authProvider/session";
import { forgetIdentity } from "../authProvider";
import { Section } from "./Section";

export function ProfileCard({ me, onSaved }: { me: SessionUser; onSaved: () => Promise<void> }) {
  const notify = useNotify();
  const [name, setName] = useState(me.name);
  const [image, setImage] = useState(me.image ?? "");
  const [errors, setErrors] = useState<{ name?: string; image?: string }>({});
  const [busy, setBusy] = useState(false);
  const save = async () => {
    const problems: typeof errors = {};
    if (!name.trim()) problems.name = "Enter your name.";
    if (image && !/^https?:\/\/\S+$/i.test(image)) problems.image = "An http:// or https:// address of an image.";
    setErrors(problems);
    if (Object.keys(problems).length) return;
    setBusy(true);
    try {
      await session.updateProfile({ name: name.trim(), image: image || null });
      forgetIdentity();
      await onSaved();
      notify("Your profile is saved.", { type: "success" });
    } catch (e) {
      setErrors({ name: (e as Error).message });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Section title="Profile" id="account-profile">
      <Box
        component="form"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
        sx={{ display: "flex", gap: 2, alignItems: "flex-start", flexWrap: "wrap" }}
      >
        <Avatar src={image || undefined} alt="" sx={{ width: 56, height: 56 }}>
          {(name || me.email).slice(0, 1).toUpperCase()}
        </Avatar>
        <Box sx={{ flex: 1, minWidth: 220 }}>
          <TextField
            id="account-name"
            label="Name"
            autoComplete="name"
            fullWidth
            margin="dense"
            value={name}
            onChange={(e) => setName(e.target.value)}
            error={!!errors.name}
            helperText={errors.name}
          />
          <TextField
            id="account-image"
            label="Picture URL"
            type="url"
            fullWidth
            margin="dense"
            value={image}
            onChange={(e) => setImage(e.target.value)}
            error={!!errors.image}
            helperText={errors.image ?? "Optional"}
          />
          <Button type="submit" variant="contained" disabled={busy} sx={{ mt: 1 }}>
            Save profile
          </Button>
        </Box>
      </Box>
    </Section>
  );
}
