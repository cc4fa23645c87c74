"""The upload cap (``UPDATE_ROUGE_DEMO_MAX_MB``, ``demo.options.max_upload_mb``): the words that
refuse a file over it, said by the server for a file it was given and by the page for a file that
gradio refused before sending it (gradio's ``max_file_size``: no handler hears of it). The page's
own script (``over_limit_js``) watches the files chosen or dropped on the upload box and, for one
over the cap, writes the refusal into the Status box through the hidden button
``#upload-over-limit``'s script-only event.
"""

import json

from demo.options import MAX_UPLOAD_VARIABLE

# The refusal, for the server (``too_big``) and, with its ``{name}`` and ``{size}`` filled in by the
# page, for the page's script.
TOO_BIG = (
    "{name} is {size} MB; this demo takes files up to {limit} MB ({variable}). "
    "Score larger files with the update-rouge command."
)
OVER_LIMIT_BUTTON = "upload-over-limit"
# Where the page's script leaves the refusal for the hidden button's event to show.
_SAID = "window.updateRougeOverLimit"


def too_big(name: str, size: int, limit_mb: float) -> str:
    """The refusal of the file ``name`` of ``size`` bytes over the cap of ``limit_mb`` megabytes."""
    return TOO_BIG.format(name=name, size=f"{size / 1e6:.1f}", limit=f"{limit_mb:g}", variable=MAX_UPLOAD_VARIABLE)


def limit_bytes(limit_mb: float) -> int:
    """The cap of ``limit_mb`` megabytes (10**6 bytes) in bytes: gradio's ``max_file_size``, which
    refuses a file larger than it (gradio reads "50mb" as 50 MiB)."""
    return int(limit_mb * 1e6)


def over_limit_js(limit_mb: float) -> str:
    """The page's script that says in the Status box why a file over ``limit_mb`` megabytes was
    refused (gradio's page refuses it the same moment, with its own pop-up)."""
    template = json.dumps(
        "Error: " + TOO_BIG.format(name="{name}", size="{size}", limit=f"{limit_mb:g}", variable=MAX_UPLOAD_VARIABLE)
    )
    return f"""() => {{
    const limit = {limit_bytes(limit_mb)};
    const check = (event, files) => {{
        const box = document.getElementById("batch-file");
        const over = box && box.contains(event.target) ? [...(files || [])].find(file => file.size > limit) : null;
        if (!over) return;
        // gradio's page never sees it: no pop-up of its own (in MiB), no upload begun for nothing.
        event.preventDefault();
        event.stopImmediatePropagation();
        if (event.type === "drop") event.target.dispatchEvent(new DragEvent("dragleave", {{bubbles: true}}));
        else event.target.value = "";
        {_SAID} = {template}.replace("{{name}}", () => over.name).replace("{{size}}", () => (over.size / 1e6).toFixed(1));
        document.querySelector("#{OVER_LIMIT_BUTTON}")?.click();
    }};
    document.addEventListener("change", event => check(event, event.target.files), true);
    document.addEventListener("drop", event => check(event, event.dataTransfer?.files), true);
    return [];
}}"""


# The hidden button's event: the Status box says what the script left.
SHOW_JS = f"() => {_SAID} || ''"
# Score file's last step: where no file was taken because the one chosen last was refused, the
# Status box says that refusal again (the server, which never saw the file, asked for one).
KEEP_JS = f"(upload, status) => (upload ? status : {_SAID} || status)"
# A file taken (or the upload box cleared): the refusal is no longer the upload's.
FORGET_JS = f"() => {{ {_SAID} = ''; return []; }}"
