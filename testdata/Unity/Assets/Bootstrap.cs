using UnityEngine;

// No asset attaches it: Unity runs Init before the first scene loads, and Init adds it to a new GameObject.
public class Bootstrap : MonoBehaviour
{
    [SerializeField] private int frameRate;

    [RuntimeInitializeOnLoadMethod]
    private static void Init() => new GameObject("Bootstrap").AddComponent<Bootstrap>();

    private void Awake()
    {
#if UNITY_ANDROID
        gameObject.AddComponent<AndroidBackButton>();
#endif
    }
}
