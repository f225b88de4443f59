"""Forms of the account pages (the password reset form is games.accounts.passwords')."""

from __future__ import annotations

from django import forms


class DeleteAccountForm(forms.Form):
    password = forms.CharField(widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
                               label="Your password")
    confirm = forms.BooleanField(label="I understand that this cannot be undone")


class EmailForm(forms.Form):
    email = forms.EmailField(required=False, max_length=254, label="Email address")
