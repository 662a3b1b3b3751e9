// A plain static class: no asset attaches it, and a UnityEvent's OnStartClicked is no call of its method.
public static class SceneLinks
{
    public static void OnStartClicked()
    {
    }
}
